//! Card-sized renditions of stored images: `GET /ipfs/{cid}?w=480`.
//!
//! A grid card is a few hundred pixels wide; uploads are often thousands. A rendition is the
//! stored image scaled down to one of [`WIDTHS`] (a fixed set, so the cache stays bounded: at
//! most five files per image), made on its first request and kept on disk under the data
//! directory by CID and width. Like the file it comes from, it never changes, so it is served
//! with immutable caching too.
//!
//! - Opaque images become JPEG; images with transparent pixels become lossless WebP (PNG's
//!   transparency kept, and smaller than PNG).
//! - Never upscaled: an image no wider than asked, an SVG (already scalable), an animated GIF or
//!   WebP (a still would lose the motion), or a rendition no smaller than the file itself is
//!   answered with the stored file as it is.
//! - A file that is no image, an image that cannot be decoded, or one beyond the decoding limits
//!   (a decompression bomb: a few kilobytes claiming gigapixels) is refused with a 400: the
//!   caller asked to resize something that cannot be resized.
//! - Decoding and scaling run on the blocking pool, at most [`max_concurrent_resizes`] at a
//!   time, so a burst of cold renditions cannot starve the async workers or the memory; two
//!   requests for the same rendition make it once.
//! - An image stored through the API has its renditions made right away, in the background
//!   ([`Renditions::make_ahead`]), so its first visitor finds them made: one image at a time,
//!   through the same [`Renditions::get_or_make`] (a request arriving meanwhile waits for the
//!   rendition being made instead of making it again). Files that would only ever answer as
//!   they are (SVG, animated) or are no image get none.

use std::{
    collections::HashMap,
    io::{self, Cursor},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
};

use axum::body::Bytes;
use image::{
    DynamicImage, ImageDecoder, ImageReader, Limits,
    codecs::{jpeg::JpegEncoder, webp::WebPDecoder, webp::WebPEncoder},
    imageops::FilterType,
    metadata::Orientation,
};
use tokio::sync::{Notify, Semaphore};

use super::cid;

/// The widths a rendition can be asked for, in pixels: a small avatar (2x), a phone card, a desktop card (and a phone
/// card at 2x), a detail view (and a desktop card at 2x), a cover or a detail view at 2x.
pub const WIDTHS: [u32; 5] = [64, 240, 480, 960, 1920];

/// The largest image decoded, in pixels per side and in total (about 160 MB of RGBA): enough
/// for any camera; beyond it a file is refused rather than decoded.
const MAX_SIDE: u32 = 16_384;
const MAX_PIXELS: u64 = 40_000_000;
/// What the decoder may allocate at once.
const MAX_DECODER_ALLOC: u64 = 256 * 1024 * 1024;
/// JPEG quality of opaque renditions: visually lossless on photos and artwork at card size.
const JPEG_QUALITY: u8 = 82;

/// What answers a request for a rendition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rendition {
    /// A scaled-down copy.
    Scaled {
        /// Its bytes.
        bytes: Vec<u8>,
        /// `image/jpeg` or `image/webp`.
        content_type: &'static str,
    },
    /// The stored file itself (SVG, animated, no wider than asked, or already smaller).
    Original,
}

/// Why no rendition can be made.
#[derive(Debug, thiserror::Error)]
pub enum RenditionError {
    /// The width is not one of [`WIDTHS`].
    #[error("w must be one of 64, 240, 480, 960, 1920 (pixels); leave it out for the original file")]
    BadWidth,
    /// The file is not an image.
    #[error("{0} is not an image: ask for it without w")]
    NotAnImage(String),
    /// The image is beyond the decoding limits.
    #[error("{0} is too large to resize (over {MAX_SIDE} pixels a side or {MAX_PIXELS} pixels): ask for it without w")]
    TooLarge(String),
    /// The image's bytes cannot be decoded.
    #[error("{cid} cannot be decoded as an image: {reason}")]
    Undecodable {
        /// The CID asked for.
        cid: String,
        /// The decoder's complaint.
        reason: String,
    },
    /// The cache folder could not be read, or the resize task failed.
    #[error("renditions folder: {0}")]
    Io(#[from] io::Error),
}

/// The width `text` names, if it is one of [`WIDTHS`].
pub fn parse_width(text: &str) -> Result<u32, RenditionError> {
    text.trim().parse::<u32>().ok().filter(|w| WIDTHS.contains(w)).ok_or(RenditionError::BadWidth)
}

/// How many renditions are made at once: one per core, at most four (each holds a decoded
/// image in memory, up to [`MAX_DECODER_ALLOC`]).
pub fn max_concurrent_resizes() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 4)
}

/// The order renditions are made ahead in: the widths a card asks for first (a desktop card,
/// then at 2x or a phone card, which is also the detail view), then the rest (64: a small
/// avatar's).
const AHEAD: [u32; 5] = [480, 960, 240, 64, 1920];

/// Images waiting for their renditions to be made ahead, at most: past it an upload's are left
/// to be made on request (each waiting image holds its bytes in memory).
const MAX_WAITING_AHEAD: usize = 32;

/// Held while one rendition (CID, width) is made.
type RenditionLock = Arc<tokio::sync::Mutex<()>>;

/// The renditions cache and the bound on resizes in progress.
pub struct Renditions {
    dir: PathBuf,
    resizing: Semaphore,
    /// One lock per rendition being made, so concurrent requests for it wait for the first.
    in_progress: Mutex<HashMap<(String, u32), RenditionLock>>,
    /// One image's renditions made ahead at a time, so that requests keep the other permits of
    /// `resizing`.
    ahead: Semaphore,
    /// Images given to [`Self::make_ahead`] not done yet, and the signal that none is left.
    waiting_ahead: AtomicUsize,
    ahead_done: Notify,
}

impl Renditions {
    /// Renditions kept in `dir` (created on the first one made).
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            resizing: Semaphore::new(max_concurrent_resizes()),
            in_progress: Mutex::default(),
            ahead: Semaphore::new(1),
            waiting_ahead: AtomicUsize::new(0),
            ahead_done: Notify::new(),
        }
    }

    /// Makes the renditions of `cid`, just stored with these `bytes`, in the background (a task
    /// on the current runtime), unless it is no still raster image: every width, so that a
    /// card or detail view at any screen density finds its rendition made. A failure is
    /// logged, and that rendition is then made on request as before.
    pub fn make_ahead(self: &Arc<Self>, cid: &str, bytes: Bytes) {
        if !cid::is_cid_v1(cid) || !is_still_raster(&bytes) {
            return;
        }
        if self.waiting_ahead.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING_AHEAD {
            self.ahead_finished();
            tracing::debug!(cid, "too many images waiting for renditions: this one's are made on request");
            return;
        }
        /// Counts the image done however its task ends.
        struct Done(Arc<Renditions>);
        impl Drop for Done {
            fn drop(&mut self) {
                self.0.ahead_finished();
            }
        }
        let done = Done(self.clone());
        let cid = cid.to_owned();
        tokio::spawn(async move {
            let this = &done.0;
            let Ok(_one_image) = this.ahead.acquire().await else { return };
            for width in AHEAD {
                if let Err(err) = this.get_or_make(&cid, bytes.clone(), width).await {
                    // Every width would fail alike (the image cannot be decoded).
                    tracing::warn!(%err, cid, width, "could not make a rendition ahead: it will be made on request");
                    break;
                }
            }
        });
    }

    fn ahead_finished(&self) {
        if self.waiting_ahead.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.ahead_done.notify_waiters();
        }
    }

    /// Waits until every image given to [`Self::make_ahead`] so far has its renditions (a
    /// program that stores images and then ends).
    pub async fn made_ahead(&self) {
        loop {
            let done = self.ahead_done.notified();
            if self.waiting_ahead.load(Ordering::SeqCst) == 0 {
                return;
            }
            done.await;
        }
    }

    /// The rendition of `cid` at `width`, if it was made before. An empty file records that
    /// the original answers.
    pub async fn cached(&self, cid: &str, width: u32) -> Result<Option<Rendition>, RenditionError> {
        if !cid::is_cid_v1(cid) {
            return Ok(None);
        }
        match tokio::fs::read(self.path(cid, width)).await {
            Ok(bytes) if bytes.is_empty() => Ok(Some(Rendition::Original)),
            Ok(bytes) => {
                let content_type = super::image_type(&bytes).unwrap_or("application/octet-stream");
                Ok(Some(Rendition::Scaled { bytes, content_type }))
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// The rendition of `cid` (whose stored bytes are `original`) at `width`: from the cache,
    /// else made now and kept.
    pub async fn get_or_make(&self, cid: &str, original: Bytes, width: u32) -> Result<Rendition, RenditionError> {
        if !WIDTHS.contains(&width) {
            return Err(RenditionError::BadWidth);
        }
        let key = (cid.to_owned(), width);
        let lock = self.in_progress.lock().expect("renditions lock").entry(key.clone()).or_default().clone();
        let made = {
            let _one_at_a_time = lock.lock().await;
            match self.cached(cid, width).await? {
                Some(done) => Ok(done),
                None => self.make(cid, original, width).await,
            }
        };
        let mut in_progress = self.in_progress.lock().expect("renditions lock");
        // The map's entry and ours: nobody else waits for it.
        if Arc::strong_count(&lock) <= 2 {
            in_progress.remove(&key);
        }
        made
    }

    async fn make(&self, cid: &str, original: Bytes, width: u32) -> Result<Rendition, RenditionError> {
        let _permit = self.resizing.acquire().await.map_err(io::Error::other)?;
        let owned_cid = cid.to_owned();
        let rendition = tokio::task::spawn_blocking(move || render(&owned_cid, &original, width)).await.map_err(io::Error::other)??;
        // A cache: failing to keep it only costs the next request another resize.
        if let Err(err) = self.keep(cid, width, &rendition).await {
            tracing::warn!(%err, cid, width, "could not keep a rendition");
        }
        Ok(rendition)
    }

    /// Writes the rendition (empty for "the original") to a temporary file and renames it, so
    /// a crash never leaves a half-written rendition.
    async fn keep(&self, cid: &str, width: u32, rendition: &Rendition) -> io::Result<()> {
        tokio::fs::create_dir_all(&self.dir).await?;
        let bytes: &[u8] = match rendition {
            Rendition::Scaled { bytes, .. } => bytes,
            Rendition::Original => &[],
        };
        let tmp = self.dir.join(format!(".{cid}.w{width}.{}", uuid::Uuid::new_v4()));
        tokio::fs::write(&tmp, bytes).await?;
        if let Err(err) = tokio::fs::rename(&tmp, self.path(cid, width)).await {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(err);
        }
        Ok(())
    }

    fn path(&self, cid: &str, width: u32) -> PathBuf {
        self.dir.join(format!("{cid}.w{width}"))
    }

    /// Removes the renditions of `cid` (its file was removed).
    pub async fn remove(&self, cid: &str) -> io::Result<()> {
        for width in WIDTHS {
            match tokio::fs::remove_file(self.path(cid, width)).await {
                Err(err) if err.kind() != io::ErrorKind::NotFound => return Err(err),
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks that `bytes` are an image that decodes ([`decodes`]), on the blocking pool and
    /// under the same bound as resizes (a decode holds the whole image in memory).
    pub async fn check_decodes(&self, bytes: Bytes, max_pixels: u64) -> Result<(), String> {
        let _permit = self.resizing.acquire().await.map_err(|e| e.to_string())?;
        tokio::task::spawn_blocking(move || decodes(&bytes, max_pixels)).await.map_err(|e| e.to_string())?
    }

    /// The folder renditions are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Whether `bytes` are an image that renditions can shrink: PNG, JPEG, or a still GIF or WebP
/// (not an SVG, already scalable, nor an animation, which a still would lose; [`render`]
/// answers those with the stored file).
pub fn is_still_raster(bytes: &[u8]) -> bool {
    match super::image_type(bytes) {
        Some("image/png" | "image/jpeg") => true,
        Some("image/gif") => !gif_is_animated(bytes),
        Some("image/webp") => WebPDecoder::new(Cursor::new(bytes)).is_ok_and(|decoder| !decoder.has_animation()),
        _ => false,
    }
}

/// Whether `bytes` are an image a browser can show, checked by decoding it (blocking): a PNG,
/// JPEG, GIF or WebP whose pixels decode (its first frame, for an animation) and that has at
/// most `max_pixels` pixels (judged from its header, before any pixel is decoded), or an SVG
/// without scripts or external references. A file that only starts like an image is refused
/// with the reason.
pub fn decodes(bytes: &[u8], max_pixels: u64) -> Result<(), String> {
    let kind = match super::image_type(bytes) {
        None => return Err("not an image by its content (PNG, JPEG, GIF, WebP or SVG)".into()),
        Some("image/svg+xml") => {
            return super::svg::problem(bytes).map_or(Ok(()), |problem| Err(format!("this SVG is not shown: {problem}")));
        }
        Some(kind) => kind.trim_start_matches("image/").to_ascii_uppercase(),
    };
    // The decoder's own words may quote the file's bytes: they go to the log, not the reason.
    let undecodable = |err: image::ImageError| match err {
        image::ImageError::Limits(_) => format!("larger than {MAX_SIDE} pixels a side"),
        other => {
            tracing::debug!(%other, "an image that does not decode");
            format!("cannot be decoded as {kind} (its data is damaged or not an image)")
        }
    };
    let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    reader.limits(limits());
    let decoder = reader.into_decoder().map_err(undecodable)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(format!("{width}×{height} pixels, more than {max_pixels}"));
    }
    DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    Ok(())
}

/// Makes the rendition of `bytes` at `width` (blocking: decodes and scales).
pub fn render(cid: &str, bytes: &[u8], width: u32) -> Result<Rendition, RenditionError> {
    let undecodable = |err: image::ImageError| match err {
        image::ImageError::Limits(_) => RenditionError::TooLarge(cid.to_owned()),
        other => RenditionError::Undecodable { cid: cid.to_owned(), reason: other.to_string() },
    };
    match super::image_type(bytes) {
        None => return Err(RenditionError::NotAnImage(cid.to_owned())),
        Some("image/svg+xml") => return Ok(Rendition::Original),
        Some("image/gif") if gif_is_animated(bytes) => return Ok(Rendition::Original),
        Some("image/webp") if WebPDecoder::new(Cursor::new(bytes)).map_err(undecodable)?.has_animation() => {
            return Ok(Rendition::Original);
        }
        Some(_) => {}
    }
    let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format()?;
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(undecodable)?;
    let (stored_width, stored_height) = decoder.dimensions();
    if u64::from(stored_width) * u64::from(stored_height) > MAX_PIXELS {
        return Err(RenditionError::TooLarge(cid.to_owned()));
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let shown_width = if turns_sideways(orientation) { stored_height } else { stored_width };
    if shown_width <= width {
        return Ok(Rendition::Original);
    }
    let mut image = DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    image.apply_orientation(orientation);
    let height = ((u64::from(image.height()) * u64::from(width) + u64::from(image.width()) / 2) / u64::from(image.width())).max(1) as u32;
    // Area averaging is fast and sharp when shrinking by half or more; closer to the stored size
    // it aliases, and a proper filter is cheap there anyway.
    let scaled = if image.width() >= 2 * width {
        image.thumbnail_exact(width, height)
    } else {
        image.resize_exact(width, height, FilterType::CatmullRom)
    };
    let (encoded, content_type) = encode(&scaled).map_err(undecodable)?;
    if encoded.len() >= bytes.len() {
        return Ok(Rendition::Original);
    }
    Ok(Rendition::Scaled { bytes: encoded, content_type })
}

/// JPEG when every pixel is opaque, else lossless WebP.
fn encode(image: &DynamicImage) -> image::ImageResult<(Vec<u8>, &'static str)> {
    let mut out = Vec::new();
    if image.color().has_alpha() {
        let rgba = image.to_rgba8();
        if rgba.pixels().any(|p| p.0[3] < u8::MAX) {
            WebPEncoder::new_lossless(&mut out).encode(rgba.as_raw(), rgba.width(), rgba.height(), image::ExtendedColorType::Rgba8)?;
            return Ok((out, "image/webp"));
        }
    }
    let rgb = image.to_rgb8();
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY).encode(
        rgb.as_raw(),
        rgb.width(),
        rgb.height(),
        image::ExtendedColorType::Rgb8,
    )?;
    Ok((out, "image/jpeg"))
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODER_ALLOC);
    limits
}

/// Whether showing the image as its EXIF orientation says swaps its width and height.
fn turns_sideways(orientation: Orientation) -> bool {
    matches!(orientation, Orientation::Rotate90 | Orientation::Rotate270 | Orientation::Rotate90FlipH | Orientation::Rotate270FlipH)
}

/// Whether a GIF holds more than one frame, read from its block structure without decoding
/// any pixels. A malformed file counts as still (its decoding then fails clearly).
fn gif_is_animated(bytes: &[u8]) -> bool {
    /// The length of a colour table flagged in `packed`, if any.
    fn color_table(packed: u8) -> usize {
        if packed & 0x80 != 0 { 3 << ((packed & 0x07) + 1) } else { 0 }
    }
    /// The position after the data sub-blocks starting at `at` (each: a length byte, then
    /// that many bytes; a zero length ends them).
    fn skip_sub_blocks(bytes: &[u8], mut at: usize) -> Option<usize> {
        loop {
            let len = usize::from(*bytes.get(at)?);
            at += 1 + len;
            if len == 0 {
                return Some(at);
            }
        }
    }
    let Some(&screen_packed) = bytes.get(10) else { return false };
    let mut at = 13 + color_table(screen_packed);
    let mut frames = 0;
    while let Some(&block) = bytes.get(at) {
        at = match block {
            // Extension: a label, then sub-blocks.
            0x21 => match skip_sub_blocks(bytes, at + 2) {
                Some(next) => next,
                None => return false,
            },
            // Image: a 9-byte descriptor, a local colour table, the LZW code size, sub-blocks.
            0x2C => {
                frames += 1;
                if frames > 1 {
                    return true;
                }
                let Some(&packed) = bytes.get(at + 9) else { return false };
                match skip_sub_blocks(bytes, at + 10 + color_table(packed) + 1) {
                    Some(next) => next,
                    None => return false,
                }
            }
            _ => return false, // the trailer (0x3B) or garbage
        };
    }
    false
}

#[cfg(test)]
mod tests {
    use image::{Rgb, RgbImage, Rgba, RgbaImage, codecs::gif::GifEncoder};

    use super::*;

    fn png(image: &DynamicImage) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    /// A noisy picture: compresses like a photo, so its rendition is smaller than the PNG.
    fn photo(width: u32, height: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_fn(width, height, |x, y| {
            let n = x.wrapping_mul(2_654_435_761).wrapping_add(y.wrapping_mul(40_503)) >> 7;
            Rgb([(n & 0xFF) as u8, ((x * 255) / width) as u8, ((y * 255) / height) as u8])
        }))
    }

    fn decoded(rendition: &Rendition) -> DynamicImage {
        let Rendition::Scaled { bytes, .. } = rendition else { panic!("expected a scaled rendition, got {rendition:?}") };
        image::load_from_memory(bytes).unwrap()
    }

    #[test]
    fn an_opaque_image_becomes_a_jpeg_of_the_asked_width_keeping_its_aspect() {
        let rendition = render("c", &png(&photo(1200, 800)), 480).unwrap();

        assert!(matches!(rendition, Rendition::Scaled { content_type: "image/jpeg", .. }));
        let image = decoded(&rendition);
        assert_eq!((image.width(), image.height()), (480, 320));
    }

    #[test]
    fn transparency_is_kept_in_lossless_webp_but_an_opaque_alpha_channel_is_dropped() {
        let holed = DynamicImage::ImageRgba8(RgbaImage::from_fn(600, 600, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 9, if x < 300 { 0 } else { 255 }])
        }));
        let rendition = render("c", &png(&holed), 240).unwrap();
        assert!(matches!(rendition, Rendition::Scaled { content_type: "image/webp", .. }));
        let image = decoded(&rendition);
        assert_eq!(image.to_rgba8().get_pixel(10, 10).0[3], 0, "the transparent half stays transparent");

        let opaque = DynamicImage::ImageRgba8(photo(600, 600).to_rgba8());
        assert!(matches!(render("c", &png(&opaque), 240).unwrap(), Rendition::Scaled { content_type: "image/jpeg", .. }));
    }

    #[test]
    fn an_image_no_wider_than_asked_is_never_upscaled() {
        assert_eq!(render("c", &png(&photo(480, 900)), 480).unwrap(), Rendition::Original);
        assert_eq!(render("c", &png(&photo(100, 100)), 960).unwrap(), Rendition::Original);
    }

    #[test]
    fn a_rendition_larger_than_the_file_is_not_made() {
        // A JPEG saved at quality 10, barely wider than asked: re-encoded at quality 82 it grows.
        let mut coarse = Vec::new();
        let rgb = photo(500, 500).to_rgb8();
        JpegEncoder::new_with_quality(&mut coarse, 10).encode(rgb.as_raw(), 500, 500, image::ExtendedColorType::Rgb8).unwrap();
        assert_eq!(render("c", &coarse, 480).unwrap(), Rendition::Original);
    }

    #[test]
    fn an_animated_gif_stays_as_it_is_and_a_still_one_is_scaled() {
        let frame =
            |shade: u8| image::Frame::new(RgbaImage::from_fn(500, 500, |x, y| Rgba([shade, (x % 256) as u8, (y % 256) as u8, 255])));
        let mut animated = Vec::new();
        GifEncoder::new(&mut animated).encode_frames([frame(0), frame(200)]).unwrap();
        let mut still = Vec::new();
        GifEncoder::new(&mut still).encode_frames([frame(0)]).unwrap();

        assert!(gif_is_animated(&animated));
        assert!(!gif_is_animated(&still));
        assert!(!gif_is_animated(b"GIF89a"));
        assert_eq!(render("c", &animated, 240).unwrap(), Rendition::Original);
        assert_eq!(decoded(&render("c", &still, 240).unwrap()).width(), 240);
    }

    #[test]
    fn widths_outside_the_set_are_refused() {
        assert_eq!(parse_width(" 480").unwrap(), 480);
        for bad in ["0", "481", "-240", "big", "", "9999999999"] {
            assert!(matches!(parse_width(bad), Err(RenditionError::BadWidth)), "{bad}");
        }
    }

    #[test]
    fn what_is_no_raster_image_is_refused_or_answered_as_it_is() {
        assert!(matches!(render("c", br#"{"name":"x"}"#, 240), Err(RenditionError::NotAnImage(_))));
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"/>"#;
        assert_eq!(render("c", svg, 240).unwrap(), Rendition::Original);
        assert!(matches!(render("c", b"\x89PNG\r\n\x1a\nnot really", 240), Err(RenditionError::Undecodable { .. })));
    }
}
