//! Procedural artwork for the demo: one style per category (abstract paint, a radial
//! equalizer, a landscape photograph, pixel-art sprites, speed stripes, a collectible card, a
//! synthwave world, Truchet tiles), plus avatars, covers and collection images. Everything is
//! a pure function of a seed, so a second run uploads the same bytes (the same CIDs).

use std::f32::consts::{PI, TAU};

use image::{ImageEncoder, Rgb, RgbImage, codecs::jpeg::JpegEncoder, codecs::png::PngEncoder};

/// An encoded image, ready to upload.
pub struct Artwork {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// `image/jpeg` or `image/png`.
    pub content_type: &'static str,
    /// A file name for the upload form.
    pub file_name: String,
}

/// The styles, by the category they illustrate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Art: soft blobs posterised into bands.
    Paint,
    /// Music: a radial equalizer.
    Equalizer,
    /// Photography: a landscape at dusk.
    Landscape,
    /// Games: a pixel-art sprite.
    Sprite,
    /// Sports: speed stripes and a ball.
    Stripes,
    /// Collectibles: a gem on a gilded card.
    Card,
    /// Virtual worlds: a synthwave grid.
    Synthwave,
    /// Utility: Truchet tiles.
    Truchet,
}

impl Style {
    /// The style of a category id of `DEFAULT_CATEGORIES`; abstract paint for any other.
    pub fn of_category(category_id: &str) -> Self {
        match category_id {
            "music" => Self::Equalizer,
            "photography" => Self::Landscape,
            "games" => Self::Sprite,
            "sports" => Self::Stripes,
            "collectibles" => Self::Card,
            "virtual-worlds" => Self::Synthwave,
            "utility" => Self::Truchet,
            _ => Self::Paint,
        }
    }
}

/// Side of an NFT image, in pixels.
pub const NFT_SIDE: u32 = 1024;

/// A small deterministic generator (SplitMix64): the same seed, the same picture.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`, mixed with a label so related pictures differ.
    pub fn new(seed: u64, label: &str) -> Self {
        let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
        for byte in label.bytes() {
            state = (state ^ u64::from(byte)).wrapping_mul(0x100_0000_01B3);
        }
        Self(state)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [low, high).
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

type Color = [f32; 3];

/// HSV (hue in turns, saturation and value in [0, 1]) to RGB in [0, 1].
fn hsv(hue: f32, saturation: f32, value: f32) -> Color {
    let h = hue.rem_euclid(1.0) * 6.0;
    let c = value * saturation;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = value - c;
    [r + m, g + m, b + m]
}

fn mix(a: Color, b: Color, t: f32) -> Color {
    let t = t.clamp(0.0, 1.0);
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

fn scale(a: Color, k: f32) -> Color {
    [a[0] * k, a[1] * k, a[2] * k]
}

fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A pixel with a little film grain (a per-pixel hash), as a photograph or a scan has: flat
/// synthetic colour would compress to an unrealistically small file and band visibly.
fn pixel(color: Color, x: u32, y: u32, grain: f32) -> Rgb<u8> {
    let mut h = (x.wrapping_mul(374_761_393) ^ y.wrapping_mul(668_265_263)).wrapping_add(0x27d4_eb2d);
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    let noise = ((h >> 16) & 0xff) as f32 / 255.0 - 0.5;
    let channel = |c: f32| ((c + noise * grain).clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
    Rgb([channel(color[0]), channel(color[1]), channel(color[2])])
}

/// A palette: a base hue and its companions.
struct Palette {
    hues: [f32; 4],
}

impl Palette {
    fn new(rng: &mut Rng) -> Self {
        let base = rng.unit();
        let spread = rng.range(0.08, 0.3);
        Self { hues: [base, base + spread, base + 0.5, base - spread] }
    }

    fn color(&self, index: usize, saturation: f32, value: f32) -> Color {
        hsv(self.hues[index % 4], saturation, value)
    }
}

/// Renders an NFT image of `style` for `seed`: 1024 x 1024, JPEG (PNG for pixel art).
pub fn nft_image(style: Style, seed: u64) -> Artwork {
    let image = render(style, &mut Rng::new(seed, "nft"), NFT_SIDE);
    match style {
        // Flat colours and hard edges: lossless is smaller and exact.
        Style::Sprite => png(&image, format!("sprite-{seed:x}.png")),
        _ => jpeg(&image, format!("{style:?}-{seed:x}.jpg").to_lowercase()),
    }
}

/// A square picture of `style`.
fn render(style: Style, rng: &mut Rng, side: u32) -> RgbImage {
    match style {
        Style::Paint => paint(rng, side, side),
        Style::Equalizer => equalizer(rng, side),
        Style::Landscape => landscape(rng, side, side),
        Style::Sprite => sprite(rng, side),
        Style::Stripes => stripes(rng, side),
        Style::Card => card(rng, side),
        Style::Synthwave => synthwave(rng, side),
        Style::Truchet => truchet(rng, side, side, side / 64),
    }
}

/// A profile picture: a soft abstract portrait of colour, 512 x 512.
pub fn avatar(seed: u64) -> Artwork {
    let mut rng = Rng::new(seed, "avatar");
    jpeg(&paint(&mut rng, 512, 512), format!("avatar-{seed:x}.jpg"))
}

/// A profile cover, 1600 x 400: a landscape, a paint field or tiles, by the seed.
pub fn cover(seed: u64) -> Artwork {
    let mut rng = Rng::new(seed, "cover");
    let image = match seed % 3 {
        0 => landscape(&mut rng, 1600, 400),
        1 => paint(&mut rng, 1600, 400),
        _ => truchet(&mut rng, 1600, 400, 24),
    };
    jpeg(&image, format!("cover-{seed:x}.jpg"))
}

/// A collection's image, in the style of its creator's work, 800 x 800.
pub fn collection_image(style: Style, seed: u64) -> Artwork {
    jpeg(&render(style, &mut Rng::new(seed, "collection"), 800), format!("collection-{seed:x}.jpg"))
}

fn jpeg(image: &RgbImage, file_name: String) -> Artwork {
    let mut bytes = Vec::new();
    JpegEncoder::new_with_quality(&mut bytes, 90)
        .write_image(image.as_raw(), image.width(), image.height(), image::ExtendedColorType::Rgb8)
        .expect("encoding a JPEG in memory cannot fail");
    Artwork { bytes, content_type: "image/jpeg", file_name }
}

fn png(image: &RgbImage, file_name: String) -> Artwork {
    let mut bytes = Vec::new();
    PngEncoder::new(&mut bytes)
        .write_image(image.as_raw(), image.width(), image.height(), image::ExtendedColorType::Rgb8)
        .expect("encoding a PNG in memory cannot fail");
    Artwork { bytes, content_type: "image/png", file_name }
}

/// Abstract paint: a field of soft blobs, posterised into bands of the palette with dark
/// contour lines between them.
fn paint(rng: &mut Rng, width: u32, height: u32) -> RgbImage {
    let palette = Palette::new(rng);
    let blobs: Vec<(f32, f32, f32)> = (0..7).map(|_| (rng.unit(), rng.unit(), rng.range(0.01, 0.05))).collect();
    let bands = rng.range(5.0, 9.0);
    let (w, h) = (width as f32, height as f32);
    RgbImage::from_fn(width, height, |x, y| {
        let (u, v) = (x as f32 / w, y as f32 / h);
        let field: f32 = blobs.iter().map(|(bx, by, r)| r / ((u - bx).powi(2) + (v - by).powi(2) + 0.002)).sum();
        let level = (field * bands).ln_1p() * 2.2;
        let band = level.floor();
        let within = level - band;
        let base = palette.color(band as usize, 0.55 + 0.1 * (band % 3.0), 0.55 + 0.4 * (1.0 - v * 0.5));
        let line = smoothstep(0.0, 0.06, within) * smoothstep(1.0, 0.94, within);
        pixel(scale(base, 0.35 + 0.65 * line), x, y, 0.05)
    })
}

/// A radial equalizer: bars around a glowing disc on a dark ground.
fn equalizer(rng: &mut Rng, side: u32) -> RgbImage {
    let palette = Palette::new(rng);
    let bars = 48 + rng.below(48);
    let lengths: Vec<f32> = {
        let (a, b, c) = (rng.range(1.0, 4.0), rng.range(3.0, 9.0), rng.unit() * TAU);
        (0..bars)
            .map(|i| {
                let t = i as f32 / bars as f32 * TAU;
                0.12 + 0.16 * (0.5 + 0.5 * (a * t + c).sin()) * (0.6 + 0.4 * (b * t).cos().abs()) + 0.06 * rng.unit()
            })
            .collect()
    };
    let inner = rng.range(0.16, 0.22);
    let ground = palette.color(2, 0.5, 0.12);
    let s = side as f32;
    RgbImage::from_fn(side, side, |x, y| {
        let (dx, dy) = (x as f32 / s - 0.5, y as f32 / s - 0.5);
        let r = (dx * dx + dy * dy).sqrt();
        let angle = dy.atan2(dx) + PI;
        let slot = angle / TAU * bars as f32;
        let bar = (slot as usize).min(bars - 1);
        let gap = slot.fract();
        let tip = inner + lengths[bar];
        let mut color = mix(ground, palette.color(0, 0.6, 0.25), 1.0 - r * 1.6);
        if r < inner {
            let glow = 1.0 - r / inner;
            color = mix(palette.color(1, 0.7, 0.35), palette.color(1, 0.3, 1.0), glow * glow);
        } else if r < tip && (0.15..0.85).contains(&gap) {
            let along = (r - inner) / (tip - inner);
            color = mix(palette.color(0, 0.8, 0.95), palette.color(3, 0.8, 1.0), along);
        } else if r >= tip {
            // A soft halo beyond each bar's tip.
            let halo = (-(r - tip) * 40.0).exp() * if (0.15..0.85).contains(&gap) { 0.5 } else { 0.0 };
            color = mix(color, palette.color(3, 0.6, 1.0), halo);
        }
        pixel(color, x, y, 0.04)
    })
}

/// A ridge line: a sum of sines with random phases.
fn ridge(rng: &mut Rng, roughness: f32) -> impl Fn(f32) -> f32 + use<> {
    let waves: Vec<(f32, f32, f32)> =
        (1..7).map(|k| (k as f32 * rng.range(1.5, 3.0), rng.unit() * TAU, roughness / (k as f32).powf(1.2))).collect();
    move |u| waves.iter().map(|(freq, phase, amp)| amp * (u * freq + phase).sin()).sum()
}

/// A landscape at dusk: a graded sky, a sun with its glow, hazy mountain ranges, a lake.
fn landscape(rng: &mut Rng, width: u32, height: u32) -> RgbImage {
    let warm = rng.range(-0.06, 0.12);
    let cool = rng.range(0.58, 0.8);
    let sky_top = hsv(cool, 0.7, 0.4);
    let sky_low = hsv(warm, 0.75, 1.0);
    let sun = (rng.range(0.2, 0.8), rng.range(0.25, 0.45));
    // Each range: the height of its base and its ridge line.
    let ranges: Vec<(f32, _)> = (0..4).map(|i| (0.42 + i as f32 * 0.09, ridge(rng, 0.05 + i as f32 * 0.01))).collect();
    let lake = rng.range(0.8, 0.9);
    let aspect = width as f32 / height as f32;
    let (w, h) = (width as f32, height as f32);
    RgbImage::from_fn(width, height, |x, y| {
        let (u, mut v) = (x as f32 / w, y as f32 / h);
        let reflected = v > lake;
        if reflected {
            v = 2.0 * lake - v;
        }
        let mut color = mix(sky_top, sky_low, v / 0.6);
        let d = (((u - sun.0) * aspect).powi(2) + (v - sun.1).powi(2)).sqrt();
        color = mix(color, hsv(warm + 0.08, 0.3, 1.0), (-d * 9.0).exp() * 0.8);
        if d < 0.06 {
            color = hsv(warm + 0.1, 0.15, 1.0);
        }
        for (i, (base, line)) in ranges.iter().enumerate() {
            if v > base + line(u * aspect / 2.0) {
                // Far ranges take the haze of the sky; near ones are deep and saturated.
                let depth = (i + 1) as f32 / ranges.len() as f32;
                let rock = hsv(cool + 0.05 * i as f32, 0.55 + 0.2 * depth, 0.5 - 0.38 * depth);
                color = mix(mix(sky_low, sky_top, 0.45), rock, 0.3 + 0.7 * depth);
                // Light on the ridge's edge, from the sun's side.
                let rim = smoothstep(0.012, 0.0, v - base - line(u * aspect / 2.0));
                color = mix(color, sky_low, rim * 0.5 * (1.0 - depth));
            }
        }
        if reflected {
            let ripple = ((y as f32 * 0.9).sin() * 0.5 + 0.5) * 0.15;
            color = scale(mix(color, hsv(0.6, 0.5, 0.2), 0.35), 0.85 + ripple);
        }
        pixel(color, x, y, 0.06)
    })
}

/// Pixel art: a symmetric sprite on a dark grid with scattered coins.
fn sprite(rng: &mut Rng, side: u32) -> RgbImage {
    const CELLS: usize = 16;
    const SPRITE: usize = 10;
    let palette = Palette::new(rng);
    let body = palette.color(0, 0.75, 0.95);
    let shade = palette.color(1, 0.8, 0.6);
    let eye = [1.0, 1.0, 1.0];
    // Half a sprite, mirrored: 0 empty, 1 body, 2 shade, 3 eye.
    let mut grid = [[0u8; SPRITE]; SPRITE];
    for row in grid.iter_mut().take(SPRITE - 1).skip(1) {
        for col in 1..SPRITE / 2 {
            let fill = rng.unit();
            let value = if fill < 0.45 {
                1
            } else if fill < 0.6 {
                2
            } else {
                0
            };
            row[col] = value;
            row[SPRITE - 1 - col] = value;
        }
        let centre = u8::from(rng.unit() < 0.8);
        row[SPRITE / 2 - 1] = row[SPRITE / 2 - 1].max(centre);
        row[SPRITE / 2] = row[SPRITE / 2 - 1];
    }
    let eye_row = 3 + rng.below(2);
    grid[eye_row][SPRITE / 2 - 2] = 3;
    grid[eye_row][SPRITE / 2 + 1] = 3;
    let coins: Vec<(usize, usize)> = (0..6).map(|_| (rng.below(CELLS), rng.below(CELLS))).collect();
    let ground = palette.color(2, 0.45, 0.16);
    let cell = side as usize / CELLS;
    let offset = (CELLS - SPRITE) / 2;
    RgbImage::from_fn(side, side, |x, y| {
        let (cx, cy) = (x as usize / cell, y as usize / cell);
        let (fx, fy) = (x as usize % cell, y as usize % cell);
        let border = fx == 0 || fy == 0;
        let in_sprite = (offset..offset + SPRITE).contains(&cx) && (offset..offset + SPRITE).contains(&cy);
        let value = if in_sprite { grid[cy - offset][cx - offset] } else { 0 };
        let color = match value {
            1 => body,
            2 => shade,
            3 => eye,
            _ if !in_sprite && coins.contains(&(cx, cy)) => {
                let (dx, dy) = (fx as f32 / cell as f32 - 0.5, fy as f32 / cell as f32 - 0.5);
                if dx * dx + dy * dy < 0.09 { hsv(0.13, 0.85, 1.0) } else { ground }
            }
            _ => scale(ground, if (cx + cy) % 2 == 0 { 1.0 } else { 1.25 }),
        };
        let [r, g, b] = if border { scale(color, 0.8) } else { color };
        Rgb([(r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8])
    })
}

/// Speed: diagonal stripes streaking past a ball with its seams.
fn stripes(rng: &mut Rng, side: u32) -> RgbImage {
    let palette = Palette::new(rng);
    let angle = rng.range(0.3, 0.7);
    let (ca, sa) = (angle.cos(), angle.sin());
    let widths: Vec<f32> = (0..12).map(|_| rng.range(0.02, 0.09)).collect();
    let ball = (rng.range(0.35, 0.65), rng.range(0.35, 0.65), rng.range(0.16, 0.22));
    let s = side as f32;
    RgbImage::from_fn(side, side, |x, y| {
        let (u, v) = (x as f32 / s, y as f32 / s);
        let across = u * sa - v * ca + 1.0;
        let mut acc = 0.0;
        let mut band = 0;
        while acc < across {
            acc += widths[band % widths.len()];
            band += 1;
        }
        let along = u * ca + v * sa;
        let streak = 0.75 + 0.25 * ((along * 30.0 + band as f32 * 1.7).sin());
        let mut color = scale(palette.color(band % 3, 0.7, 0.85), streak);
        let (dx, dy) = (u - ball.0, v - ball.1);
        let d = (dx * dx + dy * dy).sqrt();
        if d < ball.2 {
            let light = 1.0 - ((dx + ball.2 * 0.4).powi(2) + (dy + ball.2 * 0.4).powi(2)).sqrt() / (ball.2 * 2.0);
            color = mix(hsv(0.0, 0.0, 0.55), [1.0, 1.0, 1.0], light);
            let seam = ((dx / ball.2 * 3.0).sin() * 0.3 - dy / ball.2).abs();
            if seam < 0.05 || (dx / ball.2 - (dy / ball.2 * 2.5).sin() * 0.3).abs() < 0.05 {
                color = palette.color(3, 0.8, 0.7);
            }
        } else if d < ball.2 * 1.12 {
            color = scale(color, 0.4 + 0.6 * (d - ball.2) / (ball.2 * 0.12));
        }
        pixel(color, x, y, 0.05)
    })
}

/// A collectible card: a gem with lit facets inside a gilded frame, on a hexagon pattern.
fn card(rng: &mut Rng, side: u32) -> RgbImage {
    let palette = Palette::new(rng);
    let facets = 5 + rng.below(4);
    let gold = hsv(0.12, 0.6, 0.95);
    let s = side as f32;
    RgbImage::from_fn(side, side, |x, y| {
        let (u, v) = (x as f32 / s, y as f32 / s);
        // The ground: hexagonal cells.
        let (hx, hy) = (u * 14.0, v * 14.0 / 0.866);
        let row = hy.floor();
        let shifted = hx + if row as i32 % 2 == 0 { 0.0 } else { 0.5 };
        let edge = (shifted.fract() - 0.5).abs().max((hy.fract() - 0.5).abs());
        let mut color = scale(palette.color(2, 0.4, 0.22), 0.8 + 0.4 * smoothstep(0.5, 0.42, edge));
        // The card: a rounded rectangle.
        let (cx, cy) = ((u - 0.5).abs(), (v - 0.5).abs());
        let (qx, qy) = ((cx - 0.28).max(0.0), (cy - 0.38).max(0.0));
        let outside = (qx * qx + qy * qy).sqrt() - 0.04;
        if outside < 0.0 {
            color = if outside > -0.02 {
                scale(gold, 0.75 + 0.25 * ((u + v) * 40.0).sin())
            } else {
                mix(palette.color(1, 0.5, 0.35), palette.color(1, 0.6, 0.15), v)
            };
            // The gem: a polygon of `facets` sides, each facet lit by its angle.
            let (gx, gy) = (u - 0.5, v - 0.47);
            let r = (gx * gx + gy * gy).sqrt();
            let a = gy.atan2(gx) + PI;
            let sector = (a / TAU * facets as f32).floor();
            let half = PI / facets as f32;
            let local = a - (sector + 0.5) * 2.0 * half;
            let radius = 0.2 * half.cos() / local.cos();
            if r < radius {
                let light = 0.55 + 0.45 * (sector * 1.9).sin().abs();
                let table = r < radius * 0.45;
                color = palette.color(0, if table { 0.35 } else { 0.75 }, if table { 1.0 } else { light });
            }
        }
        pixel(color, x, y, 0.04)
    })
}

/// A synthwave world: a striped sun over neon mountains and a grid running to the horizon.
fn synthwave(rng: &mut Rng, side: u32) -> RgbImage {
    let hue = rng.range(0.75, 0.95);
    let horizon = rng.range(0.55, 0.62);
    let mountains = ridge(rng, 0.03);
    let lines = rng.range(10.0, 16.0);
    let s = side as f32;
    RgbImage::from_fn(side, side, |x, y| {
        let (u, v) = (x as f32 / s, y as f32 / s);
        let color = if v < horizon {
            let mut c = mix(hsv(hue - 0.1, 0.8, 0.12), hsv(hue, 0.7, 0.7), v / horizon);
            let (dx, dy) = (u - 0.5, v - horizon + 0.02);
            let d = (dx * dx + dy * dy).sqrt();
            let stripe = ((v * 90.0).sin() > 1.6 * (v / horizon) - 1.2) || v < horizon - 0.16;
            if d < 0.24 && stripe {
                c = mix(hsv(0.14, 0.8, 1.0), hsv(0.95, 0.75, 1.0), (v - horizon + 0.26) / 0.26);
            } else if d < 0.34 {
                c = mix(c, hsv(0.95, 0.6, 1.0), (0.34 - d) * 2.0);
            }
            let peak = horizon - 0.05 - mountains(u * 3.0).abs() * 1.8;
            if v > peak {
                c = mix(hsv(hue, 0.7, 0.15), hsv(hue - 0.3, 0.9, 0.9), smoothstep(peak + 0.006, peak, v));
            }
            c
        } else {
            let depth = (v - horizon).max(0.001);
            let z = 1.0 / depth;
            let across = (u - 0.5) * z;
            let gx = (across * 0.8).fract().abs();
            let gz = (z * 0.35 + 0.0).fract();
            let line = smoothstep(0.06, 0.0, gx.min(1.0 - gx)) + smoothstep(0.08 * depth * lines, 0.0, gz.min(1.0 - gz));
            mix(hsv(hue - 0.05, 0.8, 0.1), hsv(hue - 0.35, 0.7, 1.0), line.min(1.0) * (0.3 + depth * 1.5))
        };
        pixel(color, x, y, 0.05)
    })
}

/// Truchet tiles: quarter-circle arcs whose random turns make winding paths.
fn truchet(rng: &mut Rng, width: u32, height: u32, cells: u32) -> RgbImage {
    let palette = Palette::new(rng);
    let rows = (height * cells).div_ceil(width);
    let turns: Vec<bool> = (0..cells * rows).map(|_| rng.unit() < 0.5).collect();
    let cell = width as f32 / cells as f32;
    let thickness = rng.range(0.1, 0.18);
    RgbImage::from_fn(width, height, |x, y| {
        let (cx, cy) = ((x as f32 / cell) as u32, (y as f32 / cell) as u32);
        let (mut fx, fy) = ((x as f32 / cell).fract(), (y as f32 / cell).fract());
        if turns[(cy.min(rows - 1) * cells + cx.min(cells - 1)) as usize] {
            fx = 1.0 - fx;
        }
        let d1 = ((fx * fx + fy * fy).sqrt() - 0.5).abs();
        let d2 = (((1.0 - fx).powi(2) + (1.0 - fy).powi(2)).sqrt() - 0.5).abs();
        let d = d1.min(d2);
        let v = y as f32 / height as f32;
        let ground = mix(palette.color(2, 0.5, 0.2), palette.color(3, 0.5, 0.3), v);
        let path = mix(palette.color(0, 0.7, 1.0), palette.color(1, 0.7, 0.9), x as f32 / width as f32);
        let color = mix(ground, path, smoothstep(thickness, thickness - 0.03, d));
        pixel(mix(color, scale(color, 0.6), smoothstep(thickness + 0.06, thickness, d) * 0.4 * f32::from(d > thickness)), x, y, 0.04)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_style_is_deterministic_and_differs_by_seed() {
        for style in
            [Style::Paint, Style::Equalizer, Style::Landscape, Style::Sprite, Style::Stripes, Style::Card, Style::Synthwave, Style::Truchet]
        {
            let (a, b, c) = (nft_image(style, 7), nft_image(style, 7), nft_image(style, 8));
            assert_eq!(a.bytes, b.bytes, "{style:?} is not deterministic");
            assert_ne!(a.bytes, c.bytes, "{style:?} ignores its seed");
            let decoded = image::load_from_memory(&a.bytes).unwrap();
            assert_eq!((decoded.width(), decoded.height()), (NFT_SIDE, NFT_SIDE));
            // Not a flat picture: many distinct colours.
            let rgb = decoded.to_rgb8();
            let distinct: std::collections::HashSet<_> = rgb.pixels().step_by(97).map(|p| p.0).collect();
            assert!(distinct.len() > 8, "{style:?} has {} colours", distinct.len());
        }
    }

    #[test]
    fn categories_have_their_styles() {
        assert_eq!(Style::of_category("games"), Style::Sprite);
        assert_eq!(Style::of_category("a-category-added-later"), Style::Paint);
    }
}
