//! The local folder: files by CID, one file each. The whole store in the embedded default; a
//! cache of the Kubo node otherwise.

use std::{
    io,
    path::{Path, PathBuf},
};

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

    /// The bytes under `cid` (already checked to be a CID, so it is a plain file name).
    pub(super) async fn read(&self, cid: &str) -> io::Result<Option<Vec<u8>>> {
        match tokio::fs::read(self.dir.join(cid)).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }
}
