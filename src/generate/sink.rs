//! The end of the pipeline: where a block's files go. [`build`](super::build) hands every
//! file to a [`Sink`]: whole files (`spec.toml`, `manifest.json`, `SHA256SUMS` and its
//! signature) at once, the ticket files (`tickets.csv`, `tickets.bin`, `validation.csv`)
//! as [`Stream`]s that their own writer threads fill buffer by buffer. Two sinks exist:
//! [`Folder`] writes the files into a directory, [`Digests`] writes nothing (the replay of
//! `verify` compares the digests the pipeline returns with a block's files).

use super::{io, GenerateError};
use crate::block::layout::SEALED_SUFFIX;
use crate::output::hashing::HashingWriter;
use crate::store::direct::DirectFile;
use crate::store::{durable, thread};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// Where the pipeline puts a block's files. Called from the thread that runs the pipeline;
/// the streams it opens are then written from writer threads of their own.
pub trait Sink {
    /// Puts the whole file `name` (bytes `bytes`). Errors: [`GenerateError::Io`].
    fn file(&mut self, name: &str, bytes: &[u8]) -> Result<(), GenerateError>;

    /// Opens the ticket file `name`, which receives its bytes in order; with `seal`, a
    /// sink that keeps files delivers it encrypted to those recipients as `name.age`.
    /// Errors: [`GenerateError::Io`], [`GenerateError::Seal`].
    fn open(
        &mut self,
        name: &str,
        seal: Option<Vec<age::x25519::Recipient>>,
    ) -> Result<Box<dyn Stream>, GenerateError>;

    /// Sees the print records of one pack (bytes of `tickets.bin` after its header), packs
    /// in print order. Does nothing unless a sink asks for them.
    fn records(&mut self, _records: &[u8]) {}

    /// Ends the block once every file is put: a sink that keeps files flushes them to the
    /// disk. Errors: [`GenerateError::Io`].
    fn close(&mut self) -> Result<(), GenerateError>;
}

/// One ticket file being put, buffer by buffer, from its writer thread.
pub trait Stream: Send {
    /// Puts `buf` after what was put before. Errors: [`GenerateError::Io`], naming the file.
    fn write(&mut self, buf: &[u8]) -> Result<(), GenerateError>;

    /// Ends the file, flushed to the disk; returns the delivered file's size in bytes and
    /// hex SHA-256 when it is not the plaintext (an encrypted file), else `None`.
    /// Errors: [`GenerateError::Io`].
    fn finish(self: Box<Self>) -> Result<Option<(u64, String)>, GenerateError>;

    /// The file's own write buffer and its path, when bytes can be written there in place
    /// ([`DirectFile::room`]: a file in clear); `None` when they go through
    /// [`Stream::write`] only.
    fn buffer(&mut self) -> Option<(&mut DirectFile, &Path)> {
        None
    }
}

/// The sink that writes a block's files into a directory that exists and is empty (a
/// staging directory), owner-only while written; closed, every file is on the disk and has
/// the permission bits `mode`, the directory the same plus search where read is given.
pub struct Folder {
    dir: PathBuf,
    mode: u32,
    /// The whole files put before the ticket files, each being flushed to the disk on a
    /// thread of its own, joined when the folder is closed.
    flushing: Vec<(PathBuf, JoinHandle<std::io::Result<()>>)>,
    /// A ticket file was opened: whole files put from now on are flushed at once.
    streaming: bool,
}

impl Folder {
    /// The sink writing into `dir`, its files given permission bits `mode` when closed.
    pub fn new(dir: &Path, mode: u32) -> Folder {
        Folder {
            dir: dir.to_path_buf(),
            mode,
            flushing: Vec::new(),
            streaming: false,
        }
    }
}

impl Sink for Folder {
    fn file(&mut self, name: &str, bytes: &[u8]) -> Result<(), GenerateError> {
        let path = self.dir.join(name);
        if self.streaming {
            return durable::write_file(&path, bytes).map_err(io(&path));
        }
        // Put before the ticket files (`spec.toml`): flushed to the disk while the packs are
        // made, not before the first one (5 to 100 ms on a busy disk), and joined when the
        // folder is closed. A thread that cannot start leaves the flush to be done now.
        let mut f = durable::create_private(&path).map_err(io(&path))?;
        f.write_all(bytes).map_err(io(&path))?;
        let flush = f.try_clone().map_err(io(&path))?;
        match thread::spawn("a block file's flush", move || flush.sync_all()) {
            Ok(handle) => self.flushing.push((path, handle)),
            Err(_) => f.sync_all().map_err(io(&path))?,
        }
        Ok(())
    }

    fn open(
        &mut self,
        name: &str,
        seal: Option<Vec<age::x25519::Recipient>>,
    ) -> Result<Box<dyn Stream>, GenerateError> {
        self.streaming = true;
        let path = self.dir.join(name);
        match seal {
            None => {
                let file = durable::create_private(&path).map_err(io(&path))?;
                Ok(Box::new(Plain {
                    file: DirectFile::new(file),
                    path,
                }))
            }
            Some(to) => {
                let path = PathBuf::from(format!("{}{}", path.display(), SEALED_SUFFIX));
                let f = durable::create_private(&path).map_err(io(&path))?;
                let hashing = HashingWriter::new(DirectFile::new(f));
                let writer = crate::output::seal::encrypt_to(hashing, &to)
                    .map_err(|e| GenerateError::Seal(e.to_string()))?;
                Ok(Box::new(Sealed { writer, path }))
            }
        }
    }

    fn close(&mut self) -> Result<(), GenerateError> {
        for (path, handle) in self.flushing.drain(..) {
            handle
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("its flush stopped short")))
                .map_err(io(&path))?;
        }
        durable::sync_dir(&self.dir).map_err(io(&self.dir))?;
        set_modes(&self.dir, self.mode)
    }
}

/// Gives every file in `dir` the permission bits `mode`, and `dir` the same plus search
/// where read is given.
fn set_modes(dir: &Path, mode: u32) -> Result<(), GenerateError> {
    use std::os::unix::fs::PermissionsExt;
    let set = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).map_err(io(p))
    };
    for e in std::fs::read_dir(dir).map_err(io(dir))? {
        set(&e.map_err(io(dir))?.path(), mode)?;
    }
    set(dir, mode | ((mode & 0o444) >> 2))
}

/// A ticket file written in clear, past the page cache.
struct Plain {
    file: DirectFile,
    path: PathBuf,
}

impl Stream for Plain {
    fn write(&mut self, buf: &[u8]) -> Result<(), GenerateError> {
        self.file.write_all(buf).map_err(io(&self.path))
    }

    fn finish(self: Box<Self>) -> Result<Option<(u64, String)>, GenerateError> {
        // On the disk before the block can be moved into place.
        self.file.finish().map_err(io(&self.path))?;
        Ok(None)
    }

    fn buffer(&mut self) -> Option<(&mut DirectFile, &Path)> {
        Some((&mut self.file, &self.path))
    }
}

/// A ticket file written encrypted to its recipients, the delivered bytes summed.
struct Sealed {
    writer: age::stream::StreamWriter<HashingWriter<DirectFile>>,
    path: PathBuf,
}

impl Stream for Sealed {
    fn write(&mut self, buf: &[u8]) -> Result<(), GenerateError> {
        self.writer.write_all(buf).map_err(io(&self.path))
    }

    fn finish(self: Box<Self>) -> Result<Option<(u64, String)>, GenerateError> {
        let path = self.path;
        let (inner, bytes, sha256) = self.writer.finish().map_err(io(&path))?.finish();
        // On the disk before the block can be moved into place.
        inner.finish().map_err(io(&path))?;
        Ok(Some((bytes, sha256)))
    }
}

/// The sink that keeps no file: the pipeline's digests are all a replay needs. Ticket
/// files are summed in clear whatever their recipients (an encryption is never the same
/// twice), and nothing is signed. It can hand every pack's print records to a caller.
#[derive(Default)]
pub struct Digests<'a> {
    records: Option<Records<'a>>,
}

/// What sees every pack's print records, in order.
type Records<'a> = &'a mut dyn FnMut(&[u8]);

impl<'a> Digests<'a> {
    /// The sink that hands `records` the print records of every pack in print order (the
    /// bytes of `tickets.bin` after its header), for a replay that names the first ticket
    /// of a block that differs.
    pub fn with_records(records: &'a mut dyn FnMut(&[u8])) -> Self {
        Digests {
            records: Some(records),
        }
    }
}

impl Sink for Digests<'_> {
    fn file(&mut self, _name: &str, _bytes: &[u8]) -> Result<(), GenerateError> {
        Ok(())
    }

    fn open(
        &mut self,
        _name: &str,
        _seal: Option<Vec<age::x25519::Recipient>>,
    ) -> Result<Box<dyn Stream>, GenerateError> {
        Ok(Box::new(Nowhere))
    }

    fn records(&mut self, records: &[u8]) {
        if let Some(r) = self.records.as_mut() {
            r(records);
        }
    }

    fn close(&mut self) -> Result<(), GenerateError> {
        Ok(())
    }
}

/// A ticket file only summed.
struct Nowhere;

impl Stream for Nowhere {
    fn write(&mut self, _buf: &[u8]) -> Result<(), GenerateError> {
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Option<(u64, String)>, GenerateError> {
        Ok(None)
    }
}
