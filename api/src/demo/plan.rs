//! What the demo puts in the market: its people, their NFTs (one per category in turn), the
//! sale of each, who bids on and buys what, the collections, likes and bookmarks. A pure
//! function of the plan's size, so every run wants the same market and a second run finds it
//! already there.

use super::artwork::Style;

/// The size of the market to fill.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    /// People (at least 3, at most [`PEOPLE`]'s length): each bid needs an owner and two others.
    pub users: usize,
    /// NFTs each of them creates.
    pub nfts_per_user: usize,
}

impl Size {
    /// The full demo: 8 people, 64 NFTs.
    pub const FULL: Self = Self { users: 8, nfts_per_user: 8 };
}

/// A demo person.
pub struct Person {
    /// Username (also the e-mail's local part).
    pub username: &'static str,
    /// Full name.
    pub full_name: &'static str,
    /// About text.
    pub bio: &'static str,
}

/// The people: index `i` signs with the dev mnemonic's account [`FIRST_ACCOUNT`] + `i`.
pub const PEOPLE: [Person; 8] = [
    Person {
        username: "ada_lumen",
        full_name: "Ada Lumen",
        bio: "Generative painter. I grow colour fields from a handful of numbers and keep the happy accidents.",
    },
    Person {
        username: "kofi_waves",
        full_name: "Kofi Mensah",
        bio: "Producer and sound designer from Accra. Every piece here started as a loop.",
    },
    Person { username: "mira_frames", full_name: "Mira Sato", bio: "Landscape photographer chasing the last ten minutes of light." },
    Person { username: "pixel_olek", full_name: "Olek Nowak", bio: "Pixel artist and retro game tinkerer. 16 colours is plenty." },
    Person {
        username: "lucia_sprint",
        full_name: "Lucía Ferreira",
        bio: "Ex-sprinter, now drawing speed. Sports posters and motion studies.",
    },
    Person { username: "ravi_vault", full_name: "Ravi Iyer", bio: "Collector of shiny things. I cut digital gems and trade cards." },
    Person { username: "noor_grid", full_name: "Noor Haddad", bio: "Building neon worlds one grid line at a time." },
    Person { username: "tomas_tiles", full_name: "Tomás Reyes", bio: "Patterns, tools and tiles. Some of these unlock things." },
];

/// The dev mnemonic's first account the demo signs with: the end-to-end suites use 0-5.
pub const FIRST_ACCOUNT: u32 = 10;

/// Every demo person's password (a dev stack's demo data: sign in as one of them to look around).
pub const PASSWORD: &str = "demo-market-2024";

/// A person's e-mail.
pub fn email(person: &Person) -> String {
    format!("{}@demo.example.com", person.username)
}

/// How an NFT is offered.
#[derive(Clone, Debug, PartialEq)]
pub enum Sale {
    /// Kept by its owner.
    NotForSale,
    /// At a fixed price (MATIC, as decimal text).
    Fixed {
        /// The price.
        price: String,
    },
    /// In an auction: base and buy-now prices (MATIC) and its end, in hours from now.
    Auction {
        /// The lowest first bid.
        base: String,
        /// The buy-now price (above every bid).
        buy_now: String,
        /// Hours until it ends (the contract takes at most a week).
        hours: u64,
    },
}

/// A demo NFT.
pub struct NftPlan {
    /// Its creator (index into the people).
    pub creator: usize,
    /// Title: unique per creator, how a second run recognises it.
    pub title: String,
    /// Description.
    pub description: String,
    /// Category id.
    pub category: String,
    /// The style of its artwork (its category's).
    pub style: Style,
    /// Properties (key, value).
    pub properties: Vec<(String, String)>,
    /// Royalties: (person, basis points).
    pub royalties: Vec<(usize, u16)>,
    /// Its sale at mint.
    pub sale: Sale,
    /// Bids in order, each outbidding the last: (person, MATIC).
    pub bids: Vec<(usize, String)>,
    /// Who buys it at its fixed price, if anyone.
    pub buyer: Option<usize>,
    /// The seed of its artwork.
    pub seed: u64,
}

/// A demo collection: its creator's NFTs by index into [`Plan::nfts`].
pub struct CollectionPlan {
    /// Creator (index into the people).
    pub creator: usize,
    /// Title: unique per creator.
    pub title: String,
    /// NFTs to add (still owned by the creator).
    pub nfts: Vec<usize>,
    /// The style of its image (its creator's first NFT's).
    pub style: Style,
    /// The seed of its image.
    pub seed: u64,
}

/// The whole demo market.
pub struct Plan {
    /// The people taking part.
    pub people: Vec<&'static Person>,
    /// The NFTs.
    pub nfts: Vec<NftPlan>,
    /// The collections.
    pub collections: Vec<CollectionPlan>,
    /// Likes: (person, NFT index).
    pub likes: Vec<(usize, usize)>,
    /// Bookmarks: (person, NFT index).
    pub bookmarks: Vec<(usize, usize)>,
    /// Collection likes: (person, collection index).
    pub collection_likes: Vec<(usize, usize)>,
}

/// Words for titles, by style (in [`Style`]'s order): (adjectives, nouns).
const WORDS: [(&[&str], &[&str]); 8] = [
    (
        &["Quiet", "Molten", "Tidal", "Velvet", "Hollow", "Bright", "Drifting", "Silent"],
        &["Meridian", "Bloom", "Orchard", "Reverie", "Garden", "Ember", "Lagoon", "Echo"],
    ),
    (
        &["Deep", "Late", "Golden", "Broken", "Analog", "Warm", "Lunar", "Loose"],
        &["Groove", "Bassline", "Chorus", "Cadence", "Tape", "Refrain", "Anthem", "Tempo"],
    ),
    (
        &["Last", "Northern", "Amber", "Misty", "Still", "Far", "Low", "Pale"],
        &["Ridge", "Harbour", "Valley", "Light", "Shore", "Summit", "Fjord", "Horizon"],
    ),
    (
        &["Tiny", "Brave", "Lost", "Hyper", "Turbo", "Sleepy", "Lucky", "Rogue"],
        &["Invader", "Knight", "Slime", "Pilot", "Golem", "Sprite", "Wizard", "Runner"],
    ),
    (
        &["Final", "Fast", "Clean", "Full", "Long", "Wild", "Home", "Open"],
        &["Lap", "Sprint", "Goal", "Serve", "Stride", "Pitch", "Relay", "Finish"],
    ),
    (
        &["Rare", "Cut", "Royal", "First", "Gilded", "Prism", "Secret", "Mint"],
        &["Gem", "Token", "Relic", "Badge", "Crest", "Shard", "Charm", "Seal"],
    ),
    (
        &["Neon", "Outer", "Retro", "Electric", "Endless", "Sunset", "Chrome", "Hidden"],
        &["Grid", "City", "District", "Highway", "Arcade", "Station", "Frontier", "Realm"],
    ),
    (
        &["Master", "Smart", "Daily", "Open", "Secure", "Swift", "Shared", "Prime"],
        &["Pass", "Key", "Ticket", "Access", "License", "Voucher", "Membership", "Permit"],
    ),
];

const DESCRIPTIONS: [&str; 8] = [
    "An abstract study in layered colour: soft forms drift into each other and settle into bands.",
    "Cover art for a track built from a single loop, drawn as the sound looks on a radial meter.",
    "A landscape at dusk, the ranges fading into haze and the sun doubled in still water.",
    "A hand-placed pixel sprite from an imaginary 16-colour game, with a few coins to collect.",
    "A motion study: speed lines racing past the ball at the decisive moment.",
    "A cut gem set in a gilded card, one of a numbered series of collectibles.",
    "A neon world at the edge of the grid, where the sun never quite sets.",
    "A pass that grants its holder access: woven from interlocking tiles, no two alike.",
];

/// Traits per style: (key, values).
const TRAITS: [(&str, &[&str]); 8] = [
    ("Palette", &["Warm", "Cool", "Dusk", "Pastel"]),
    ("BPM", &["84", "96", "120", "128", "140"]),
    ("Lens", &["24mm", "35mm", "50mm", "85mm"]),
    ("Class", &["Tank", "Scout", "Mage", "Rogue"]),
    ("Discipline", &["Football", "Tennis", "Athletics", "Basketball"]),
    ("Rarity", &["Common", "Rare", "Epic", "Legendary"]),
    ("Zone", &["Downtown", "Harbour", "Outskirts", "Skyline"]),
    ("Validity", &["1 month", "6 months", "1 year", "Lifetime"]),
];

/// An NFT's background: Midnight and Ivory common, Coral and Sage less so, Gold rare.
fn background(u: usize, k: usize) -> &'static str {
    match mix(u + 7, k + 11) % 16 {
        0..=4 => "Midnight",
        5..=8 => "Ivory",
        9..=11 => "Coral",
        12..=14 => "Sage",
        _ => "Gold",
    }
}

/// An NFT's frame, if it has one (three in ten do not).
fn frame(u: usize, k: usize) -> Option<&'static str> {
    match mix(k + 5, u + 3) % 10 {
        0..=3 => Some("Wood"),
        4..=5 => Some("Brass"),
        6 => Some("Neon"),
        _ => None,
    }
}

/// A deterministic mix of two numbers (for picks that look random but never change).
fn mix(a: usize, b: usize) -> u64 {
    let mut z = (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (b as u64).wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 32)
}

/// An artwork's seed from the names it belongs to (FNV-1a, then mixed): the picture follows
/// the title, so two NFTs of one style never share their colours by accident of numbering.
fn seed_of(parts: &[&str]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in parts.join("/").bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
    }
    mix(hash as usize, parts.len())
}

/// MATIC with two decimals, from hundredths.
fn matic(hundredths: u64) -> String {
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

impl Plan {
    /// The market for `size`, its NFTs' categories taken in turn from `categories` (ids).
    pub fn new(size: Size, categories: &[String]) -> Self {
        let users = size.users.clamp(3, PEOPLE.len());
        let people: Vec<&Person> = PEOPLE.iter().take(users).collect();
        // The others of `u`, starting after it: bidders, buyers, collaborators.
        let other = |u: usize, k: usize| (u + 1 + k % (users - 1)) % users;
        let mut nfts = Vec::new();
        for u in 0..users {
            for k in 0..size.nfts_per_user {
                let category = categories.get((u + k) % categories.len().max(1)).cloned().unwrap_or_else(|| "art".to_owned());
                let style = Style::of_category(&category);
                let words = style as usize;
                let (adjectives, nouns) = WORDS[words];
                let pick = mix(u, k) as usize;
                let title = format!("{} {}", adjectives[(pick + k) % adjectives.len()], nouns[(pick / 7 + u + k) % nouns.len()]);
                let title = if k >= 8 { format!("{title} #{}", k / 8 + 1) } else { title };
                let seed = seed_of(&[PEOPLE[u].username, &title]);
                let (key, values) = TRAITS[words];
                // Which of the creator's works it is ("3 of 8"); each NFT is itself unique. Two
                // traits shared by every style, unevenly spread (a gold background is rare, and
                // some works have no frame), so that the facets and the rarity ranks have
                // something to tell apart.
                let mut properties = vec![
                    (key.to_owned(), values[pick % values.len()].to_owned()),
                    ("Edition".to_owned(), format!("{} of {}", k + 1, size.nfts_per_user)),
                    ("Background".to_owned(), background(u, k).to_owned()),
                ];
                if let Some(frame) = frame(u, k) {
                    properties.push(("Frame".to_owned(), frame.to_owned()));
                }
                let price = 5 + mix(k, u) % 240; // 0.05 to 2.45 MATIC
                // Per creator, in turn: three listed at a fixed price, one sold, three auctions
                // (outbid, bid once, waiting for a first bid), one kept.
                let (sale, bids, buyer) = match k % 8 {
                    0..=2 => (Sale::Fixed { price: matic(price) }, vec![], None),
                    3 => {
                        let base = 10 + price / 4;
                        let bids = vec![
                            (other(u, 1), matic(base)),
                            (other(u, 2), matic(base * 115 / 100)),
                            (other(u, 1), matic(base * 135 / 100)),
                        ];
                        (
                            Sale::Auction { base: matic(base), buy_now: matic(base * 5), hours: 48 + (u as u64 * 7 + k as u64) % 96 },
                            bids,
                            None,
                        )
                    }
                    4 => {
                        let base = 20 + price / 3;
                        (
                            Sale::Auction { base: matic(base), buy_now: matic(base * 4), hours: 36 + (u as u64 * 11) % 100 },
                            vec![(other(u, 3), matic(base * 11 / 10))],
                            None,
                        )
                    }
                    5 => (
                        Sale::Auction { base: matic(15 + price / 5), buy_now: matic(60 + price), hours: 72 + (u as u64 * 5) % 80 },
                        vec![],
                        None,
                    ),
                    6 => (Sale::NotForSale, vec![], None),
                    _ => (Sale::Fixed { price: matic(price) }, vec![], Some(other(u, u))),
                };
                let royalties = match k % 3 {
                    0 => vec![(u, 500)],
                    1 if k % 2 == 1 => vec![(u, 700), (other(u, 0), 300)],
                    _ => vec![],
                };
                nfts.push(NftPlan {
                    creator: u,
                    title,
                    description: DESCRIPTIONS[words].to_owned(),
                    category,
                    style,
                    properties,
                    royalties,
                    sale,
                    bids,
                    buyer,
                    seed,
                });
            }
        }
        // One collection per person, of the NFTs they keep (not the one they sell), and the ones
        // they bought: their past sales give the collection its volume (the statistics count the
        // trade of a collection's members).
        let collection_names =
            ["Selected Works", "Studio Sessions", "Field Notes", "Cartridge Club", "Motion Studies", "Vault", "Night Shift", "Toolbox"];
        let collections = (0..users)
            .map(|u| CollectionPlan {
                creator: u,
                title: format!(
                    "{}'s {}",
                    PEOPLE[u].full_name.split(' ').next().unwrap_or_default(),
                    collection_names[u % collection_names.len()]
                ),
                style: nfts.iter().find(|n| n.creator == u).map_or(Style::Truchet, |n| n.style),
                nfts: (nfts.iter().enumerate().filter(|(_, n)| n.creator == u && n.buyer.is_none()).map(|(i, _)| i).take(4))
                    .chain(nfts.iter().enumerate().filter(|(_, n)| n.buyer == Some(u)).map(|(i, _)| i))
                    .collect(),
                seed: seed_of(&[PEOPLE[u].username, "collection"]),
            })
            .collect();
        let mut likes = Vec::new();
        let mut bookmarks = Vec::new();
        for u in 0..users {
            for (i, nft) in nfts.iter().enumerate() {
                if nft.creator == u {
                    continue;
                }
                let roll = mix(u + 3000, i) % 10;
                if roll < 3 {
                    likes.push((u, i));
                }
                if roll == 3 || roll == 0 {
                    bookmarks.push((u, i));
                }
            }
        }
        let collection_likes = (0..users).flat_map(|u| [(u, other(u, 0)), (u, other(u, 2))]).collect();
        Self { people, nfts, collections, likes, bookmarks, collection_likes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_plan_fills_every_category_with_every_kind_of_sale() {
        let categories: Vec<String> = domain::catalog::DEFAULT_CATEGORIES.iter().map(|(id, _)| (*id).to_owned()).collect();
        let plan = Plan::new(Size::FULL, &categories);
        assert_eq!(plan.nfts.len(), 64);
        for category in &categories {
            assert_eq!(plan.nfts.iter().filter(|n| &n.category == category).count(), 8, "category {category}");
        }
        let titles: std::collections::HashSet<_> = plan.nfts.iter().map(|n| (n.creator, n.title.clone())).collect();
        assert_eq!(titles.len(), plan.nfts.len(), "titles are unique per creator");
        assert!(plan.nfts.iter().any(|n| n.sale == Sale::NotForSale));
        assert!(plan.nfts.iter().any(|n| n.buyer.is_some()));
        assert!(plan.nfts.iter().any(|n| n.bids.len() >= 2));
        assert!(plan.nfts.iter().any(|n| !n.royalties.is_empty()));
        for nft in &plan.nfts {
            // Nobody bids on or buys their own NFT, and bids rise.
            assert!(nft.bids.iter().all(|(who, _)| *who != nft.creator));
            assert!(nft.buyer != Some(nft.creator));
            assert!(
                nft.bids.windows(2).all(|w| w[0].0 != w[1].0 && w[1].1.parse::<f64>().unwrap() >= w[0].1.parse::<f64>().unwrap() * 1.05)
            );
            if let Sale::Auction { buy_now, hours, .. } = &nft.sale {
                assert!(nft.bids.iter().all(|(_, bid)| bid.parse::<f64>().unwrap() < buy_now.parse::<f64>().unwrap()));
                assert!(*hours <= 168, "the contract takes auctions of at most a week");
            }
        }
        assert!(plan.likes.iter().all(|(u, i)| plan.nfts[*i].creator != *u));
    }

    #[test]
    fn the_shared_traits_vary_so_that_facets_and_ranks_tell_nfts_apart() {
        let categories: Vec<String> = domain::catalog::DEFAULT_CATEGORIES.iter().map(|(id, _)| (*id).to_owned()).collect();
        let plan = Plan::new(Size::FULL, &categories);
        let value = |n: &NftPlan, key: &str| n.properties.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let count = |key: &str, wanted: Option<&str>| plan.nfts.iter().filter(|n| value(n, key).as_deref() == wanted).count();
        for background in ["Midnight", "Ivory", "Coral", "Sage", "Gold"] {
            assert!(count("Background", Some(background)) > 0, "{background}");
        }
        assert!(count("Background", Some("Gold")) < count("Background", Some("Midnight")), "gold is the rare one");
        assert!(count("Frame", None) > 0 && count("Frame", Some("Wood")) > count("Frame", Some("Neon")), "some have no frame");
        // Two traits together still find a few of the listings, not all or none.
        let both = plan
            .nfts
            .iter()
            .filter(|n| value(n, "Background").as_deref() == Some("Midnight") && value(n, "Frame").as_deref() == Some("Wood"));
        assert!((2..20).contains(&both.count()));
        // Each collection's members differ in their traits (their ranks are not all tied).
        for collection in &plan.collections {
            let traits: std::collections::HashSet<_> = collection.nfts.iter().map(|i| plan.nfts[*i].properties[2..].to_vec()).collect();
            assert!(traits.len() > 1, "{}", collection.title);
        }
    }

    #[test]
    fn a_small_plan_still_has_bids_from_two_others() {
        let plan = Plan::new(Size { users: 3, nfts_per_user: 8 }, &["art".to_owned(), "music".to_owned()]);
        let outbid = plan.nfts.iter().find(|n| n.bids.len() == 3).unwrap();
        assert!(outbid.bids.iter().all(|(who, _)| *who != outbid.creator));
    }
}
