//! The local folder: files by CID, one file each. The whole store in the embedded default; a
//! cache of the Kubo node otherwise.
//!
//! `.foreign/` beside them lists the files stored as images of tokens minted elsewhere (one
//! small file per CID: its size and when it was last stored), the only ones the collector of
//! unused files may remove (see [`super::FileStore::collect_foreign`]).

use std::{
    io,
    path::{Path, PathBuf},
};

/// The folder of foreign-image entries, inside the files folder (not a CID, so never served).
const FOREIGN: &str = ".foreign";

/// A file stored as a foreign image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ForeignEntry {
    pub(super) cid: String,
    pub(super) size: u64,
    /// When it was last stored (Unix seconds).
    pub(super) stored_at: i64,
}

/// A folder of files named by their CID.
pub(super) struct LocalDir {
    dir: PathBuf,
}

impl LocalDir {
    /// The folder `dir` (created if missing).
    pub(super) fn open(dir: &Path) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(Self { dir: dir.to_owned() })
    }

    /// Writes `bytes` under `cid` unless already there. Written to a temporary file and renamed,
    /// so a crash never leaves a half-written file under a valid address.
    pub(super) async fn write(&self, cid: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.dir.join(cid);
        if tokio::fs::try_exists(&path).await? {
            return Ok(());
        }
        let tmp = self.dir.join(format!(".{cid}.{}", uuid::Uuid::new_v4()));
        tokio::fs::write(&tmp, bytes).await?;
        if let Err(err) = tokio::fs::rename(&tmp, &path).await {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(err);
        }
        Ok(())
    }

    /// Whether a file is stored under `cid`.
    pub(super) async fn contains(&self, cid: &str) -> io::Result<bool> {
        tokio::fs::try_exists(self.dir.join(cid)).await
    }

    /// Removes the file under `cid` (nothing if it is not there).
    pub(super) async fn remove(&self, cid: &str) -> io::Result<()> {
        ignore_missing(tokio::fs::remove_file(self.dir.join(cid)).await)
    }

    /// Lists `cid` as a foreign image of `size` bytes stored now (again, if it was listed).
    pub(super) async fn mark_foreign(&self, cid: &str, size: u64) -> io::Result<()> {
        let dir = self.dir.join(FOREIGN);
        tokio::fs::create_dir_all(&dir).await?;
        let tmp = dir.join(format!(".{cid}.{}", uuid::Uuid::new_v4()));
        tokio::fs::write(&tmp, format!("{size} {}", chrono::Utc::now().timestamp())).await?;
        tokio::fs::rename(&tmp, dir.join(cid)).await
    }

    /// The entry of `cid` if it is listed as a foreign image.
    pub(super) async fn foreign_entry(&self, cid: &str) -> io::Result<Option<ForeignEntry>> {
        match tokio::fs::read_to_string(self.dir.join(FOREIGN).join(cid)).await {
            Ok(text) => Ok(parse_entry(cid, &text)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// Takes `cid` off the foreign-image list (nothing if it is not on it).
    pub(super) async fn unmark_foreign(&self, cid: &str) -> io::Result<()> {
        ignore_missing(tokio::fs::remove_file(self.dir.join(FOREIGN).join(cid)).await)
    }

    /// Every file listed as a foreign image.
    pub(super) async fn foreign(&self) -> io::Result<Vec<ForeignEntry>> {
        let mut entries = match tokio::fs::read_dir(self.dir.join(FOREIGN)).await {
            Ok(entries) => entries,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => return Err(err),
        };
        let mut listed = Vec::new();
        while let Some(entry) = entries.next_entry().await? {
            let Some(cid) = entry.file_name().to_str().filter(|name| super::cid::is_cid_v1(name)).map(str::to_owned) else { continue };
            if let Some(entry) = self.foreign_entry(&cid).await? {
                listed.push(entry);
            }
        }
        Ok(listed)
    }

    /// The bytes under `cid` (already checked to be a CID, so it is a plain file name).
    pub(super) async fn read(&self, cid: &str) -> io::Result<Option<Vec<u8>>> {
        match tokio::fs::read(self.dir.join(cid)).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }
}

fn parse_entry(cid: &str, text: &str) -> Option<ForeignEntry> {
    let (size, stored_at) = text.trim().split_once(' ')?;
    Some(ForeignEntry { cid: cid.to_owned(), size: size.parse().ok()?, stored_at: stored_at.parse().ok()? })
}

fn ignore_missing(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}
