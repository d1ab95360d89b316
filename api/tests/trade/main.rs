//! The trading calls end to end on a real anvil: uploads, the record calls after each chain
//! transaction (and every way a transaction hash can be wrong), my bids, and the social-preview
//! tags of shared NFT links.

mod helpers;
mod offers;
mod smart_accounts;
#[path = "../support/mod.rs"]
mod support;

use alloy::primitives::U256;
use helpers::{Form, MAX_FILE, Market, PUBLIC_URL, User, forged_hash, hash, matic, png};
use indexer::{
    bindings::Marketplace,
    test_utils::{mint_call, stop_sale_call},
};
use serde_json::{Value, json};

fn token(n: u64) -> U256 {
    U256::from(n)
}

/// Uploads an image with its metadata; answers the upload's body.
async fn upload(market: &Market, user: &User, title: &str, image: &[u8]) -> Value {
    let (content_type, body) = Form::new()
        .text("title", title)
        .text("description", "A warm evening over the bay")
        .text("nftCategory", "art")
        .text("properties", r#"[{"key":"Color","value":"Orange","id":1},{"key":"","value":""}]"#)
        .file("file", "sunset.png", "image/png", image)
        .finish();
    market.raw("POST", "/api/nft/ipfsupload", Some(&user.token), &content_type, body).await.expect(200).body().clone()
}

/// Records a mint the way the create form does: form-urlencoded, the receipt as JSON text.
async fn record_mint(market: &Market, user: &User, meta_data: &str, tx: &str) -> helpers::Answer {
    let mint_response = json!({ "transactionHash": tx, "status": "success" }).to_string();
    market
        .form(
            "POST",
            "/api/nft/generation",
            Some(&user.token),
            &[
                ("formOfSale", "FIXEDPRICE"),
                ("saleCoin", "1"),
                ("mintNft", "true"),
                ("metaData", meta_data),
                ("mintResponse", &mint_response),
                ("nftCategory", "art"),
                ("fixedPrice", "1"),
                ("royalty", "[]"),
            ],
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_an_nft_stores_its_files_under_real_cids_and_records_it_for_its_creator() {
    let market = Market::start().await;
    let alice = market.user("alice", 1).await;
    let bob = market.user("bob", 2).await;
    let image = png(2_000);

    let uploaded = upload(&market, &alice, "Sunset", &image).await;

    // The CIDs are the file store's own, and the files are served at them.
    let image_cid = api::files::cid::cid_v1(&image);
    assert_eq!(uploaded["imageCid"], image_cid);
    assert_eq!(uploaded["file"], format!("/ipfs/{image_cid}"));
    let metadata_cid = uploaded["metadataCid"].as_str().unwrap().to_owned();
    assert_eq!(uploaded["metaData"], format!("ipfs://{metadata_cid}"));
    assert_eq!(uploaded["metadataUrl"], format!("/ipfs/{metadata_cid}"));
    let (_, metadata_bytes) = market.get_bytes(&format!("/ipfs/{metadata_cid}")).await;
    assert_eq!(api::files::cid::cid_v1(&metadata_bytes), metadata_cid);
    let metadata: Value = serde_json::from_slice(&metadata_bytes).unwrap();
    assert_eq!(
        metadata,
        json!({ "name": "Sunset", "description": "A warm evening over the bay", "image": format!("ipfs://{image_cid}"),
                "attributes": [{ "trait_type": "Color", "value": "Orange" }] })
    );
    assert_eq!(market.get_bytes(&format!("/ipfs/{image_cid}")).await.1, image);

    // Alice mints with the metadata URI and records it.
    let meta_data = uploaded["metaData"].as_str().unwrap();
    let receipt = market.transact(&alice, mint_call(meta_data, 1, &[], 0, U256::ZERO, matic(10)), U256::ZERO).await;
    let tx = hash(&receipt);

    // Bob cannot claim Alice's mint, nor can anyone record it with other metadata.
    record_mint(&market, &bob, meta_data, &tx).await.refused("not a wallet linked to your account");
    let other = upload(&market, &alice, "Other", &png(3_000)).await;
    record_mint(&market, &alice, other["metaData"].as_str().unwrap(), &tx).await.refused("minted with URI");
    record_mint(&market, &alice, "ipfs://bafkreinotstoredhere", &tx).await.refused("metaData");
    assert_eq!(market.records().await, 0, "refused records write nothing");

    let answer = record_mint(&market, &alice, meta_data, &tx).await.expect(200);
    let nft = answer.body();
    assert_eq!(nft["_id"], "80001-1");
    assert_eq!((nft["title"].as_str(), nft["nftCategory"].as_str()), (Some("Sunset"), Some("art")));
    assert_eq!(nft["description"], "A warm evening over the bay");
    assert_eq!(nft["file"], format!("/ipfs/{image_cid}"));
    assert_eq!(nft["metadataUrl"], format!("/ipfs/{metadata_cid}"));
    assert_eq!(nft["properties"], json!([{ "key": "Color", "value": "Orange" }]));
    assert_eq!(nft["creator"]["userId"].as_str(), Some(alice.id.as_str()));
    assert_eq!(nft["formOfSale"], "FIXEDPRICE");
    assert_eq!(market.get("/api/nft/detail/80001-1", None).await.expect(200).body()["title"], "Sunset");

    // Alice's retry (her first answer lost) is answered as the first was and appends nothing;
    // JSON is accepted as well as the form. Bob still cannot claim it.
    let again = record_mint(&market, &alice, meta_data, &tx).await.expect(200);
    assert_eq!((again.message(), again.body()), ("NFT created", nft));
    let again = market
        .json(
            "POST",
            "/api/nft/generation",
            Some(&alice.token),
            json!({ "metaData": meta_data, "nftCategory": "art", "transactionHash": tx }),
        )
        .await
        .expect(200);
    assert_eq!(again.body()["_id"], "80001-1");
    record_mint(&market, &bob, meta_data, &tx).await.refused("not a wallet linked to your account");
    assert_eq!(market.records().await, 1);
    assert_eq!(market.events_of_type("NftDetailsRecorded").await, 1, "a retry records the details once");

    // Malformed bodies, wrong types, missing fields, unknown categories, no token.
    let generation = |body: &'static str| market.raw("POST", "/api/nft/generation", Some(&alice.token), "application/json", body);
    assert!(generation("{\"metaData\": ").await.expect(400).message().contains("Invalid JSON"));
    generation(r#"{"metaData": 5, "nftCategory": "art", "transactionHash": "0x00"}"#).await.refused("metaData");
    generation(r#"{"nftCategory": "art"}"#).await.refused("metaData");
    generation(r#"{"metaData": "ipfs://x", "nftCategory": "art"}"#).await.refused("transactionHash");
    market
        .json(
            "POST",
            "/api/nft/generation",
            Some(&alice.token),
            json!({ "metaData": meta_data, "nftCategory": "nope", "transactionHash": tx }),
        )
        .await
        .refused("nftCategory");
    market.json("POST", "/api/nft/generation", None, json!({})).await.expect(401);

    // A shared link of the NFT previews it; other pages are the plain entry page.
    let (status, html) = market.get_bytes("/nft/80001-1").await;
    let html = String::from_utf8(html).unwrap();
    assert_eq!(status, 200);
    assert!(html.contains(r#"<meta property="og:title" content="Sunset" />"#), "{html}");
    assert!(html.contains(r#"<meta property="og:description" content="A warm evening over the bay" />"#));
    assert!(html.contains(&format!(r#"<meta property="og:image" content="{PUBLIC_URL}/ipfs/{image_cid}" />"#)));
    assert!(html.contains(r#"<meta name="twitter:card" content="summary_large_image" />"#));
    assert!(html.contains("<title>Sunset</title>"));
    let (_, auction_page) = market.get_bytes("/auction/80001-1").await;
    assert!(String::from_utf8(auction_page).unwrap().contains("og:title"));
    let (status, plain) = market.get_bytes("/explore").await;
    assert_eq!(status, 200);
    assert!(!String::from_utf8(plain).unwrap().contains("og:"));
    let (_, unknown) = market.get_bytes("/nft/80001-99").await;
    assert!(!String::from_utf8(unknown).unwrap().contains("og:"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_are_checked_by_content_size_and_fields_and_a_refused_one_stores_nothing() {
    let market = Market::start().await;
    let alice = market.user("alice", 1).await;
    let (m, token) = (&market, alice.token.as_str());
    let send = move |form: Form| async move {
        let (content_type, body) = form.finish();
        m.raw("POST", "/api/nft/ipfsupload", Some(token), &content_type, body).await
    };
    let full = |image: &[u8]| {
        Form::new().text("title", "T").text("description", "D").text("nftCategory", "Music").file("file", "x.png", "image/png", image)
    };
    let files = market.file_count();

    let html = b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>";
    send(full(html)).await.refused("not an image");
    send(full(&png(MAX_FILE + 1))).await.expect(413);
    let svg_script = br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#;
    send(full(svg_script)).await.refused("SVG");
    let svg_handler = br#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#;
    send(full(svg_handler)).await.refused("event handlers");
    // Judged as XML, by local name and resolved namespace: a prefix does not hide a script.
    let svg_prefixed =
        br#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></svg>"#;
    send(full(svg_prefixed)).await.refused("it contains a script");
    let svg_entity =
        br#"<!DOCTYPE svg [<!ENTITY s "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg xmlns="http://www.w3.org/2000/svg">&s;</svg>"#;
    send(full(svg_entity)).await.refused("DOCTYPE");
    let svg_link = br#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:l="http://www.w3.org/1999/xlink"><a l:href="javascript:alert(1)"><text>x</text></a></svg>"#;
    send(full(svg_link)).await.refused("javascript:");
    send(Form::new().text("title", " ").text("description", "D").text("nftCategory", "art").file("file", "x.png", "image/png", &png(100)))
        .await
        .refused("NFT name can't be empty.");
    send(Form::new().text("title", "T").text("nftCategory", "art").file("file", "x.png", "image/png", &png(100)))
        .await
        .refused("NFT description can't be empty.");
    send(Form::new().text("title", "T").text("description", "D").file("file", "x.png", "image/png", &png(100)))
        .await
        .refused("NFT category can't be empty.");
    send(Form::new().text("title", "T").text("description", "D").text("nftCategory", "art")).await.refused("Please upload image.");
    send(full(&png(100)).text("nftCategory", "no-such-category")).await.refused("nftCategory");
    send(full(&png(100)).text("properties", r#"{"key":"a"}"#)).await.refused("properties");
    send(full(&png(100)).text("properties", r#"[{"key":"a","value":""}]"#)).await.refused("properties");
    let (content_type, body) = full(&png(100)).finish();
    market.raw("POST", "/api/nft/ipfsupload", None, &content_type, body).await.expect(401);
    assert_eq!(market.file_count(), files, "refused uploads store nothing");

    // A category may be named as the form shows it; a plain SVG is an image.
    let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2" fill="#f80"/></svg>"##;
    let answer = send(full(svg)).await.expect(200);
    assert_eq!(answer.body()["imageCid"], api::files::cid::cid_v1(svg));
}

async fn purchase(market: &Market, user: &User, nft: &str, tx: &str) -> helpers::Answer {
    market
        .json(
            "POST",
            "/api/nft/fixedsale/purchase",
            Some(&user.token),
            json!({ "formOfSale": "FIXEDPRICE", "nftid": nft, "saleQuantity": 1, "transactionHash": tx }),
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_is_recorded_for_its_buyer_and_every_wrong_hash_is_refused_recording_nothing() {
    let market = Market::start().await;
    let (alice, bob, carol) = (market.user("alice", 1).await, market.user("bob", 2).await, market.user("carol", 3).await);
    // Token 1 at 1 MATIC, token 2 not for sale.
    market.transact(&alice, mint_call("ipfs://one", 1, &[], 0, U256::ZERO, matic(10)), U256::ZERO).await;
    market.transact(&alice, mint_call("ipfs://two", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;

    // Refused on chain: the wrong price, a token not for sale. The record calls then find a failed receipt.
    let wrong_price = market.transact_failing(&carol, Marketplace::buyTokenCall { tokenId: token(1) }, matic(5)).await;
    purchase(&market, &carol, "80001-1", &wrong_price).await.refused("failed on chain");
    let not_for_sale = market.transact_failing(&carol, Marketplace::buyTokenCall { tokenId: token(2) }, matic(10)).await;
    purchase(&market, &carol, "80001-2", &not_for_sale).await.refused("failed on chain");

    let bought = hash(&market.transact(&bob, Marketplace::buyTokenCall { tokenId: token(1) }, matic(10)).await);
    purchase(&market, &bob, "80001-1", &forged_hash()).await.refused("No transaction");
    purchase(&market, &bob, "80001-1", "0x1234").await.refused("transactionHash");
    let transfer = market.transfer(&bob, market.address(&carol)).await;
    purchase(&market, &bob, "80001-1", &transfer).await.refused("not sent to the marketplace contract");
    purchase(&market, &carol, "80001-1", &bought).await.refused("not a wallet linked to your account");
    purchase(&market, &bob, "80001-2", &bought).await.refused("concerns token 1, not token 2");
    purchase(&market, &bob, "1234-1", &bought).await.refused("nftid");
    let mint = hash(&market.transact(&alice, mint_call("ipfs://three", 1, &[], 0, U256::ZERO, matic(10)), U256::ZERO).await);
    purchase(&market, &alice, "80001-3", &mint).await.refused("is not a purchase");
    let purchase_at = |body: &'static str| market.raw("POST", "/api/nft/fixedsale/purchase", Some(&bob.token), "application/json", body);
    assert!(purchase_at("{\"nftid\": \"80001-1\",").await.expect(400).message().contains("Invalid JSON"));
    purchase_at(r#"{"nftid": 1, "transactionHash": "0x00"}"#).await.refused("nftid");
    purchase_at(r#"{"nftid": "80001-1", "transactionHash": true}"#).await.refused("transactionHash");
    purchase_at(r#"{"nftid": "80001-1", "saleQuantity": "two", "transactionHash": "0x00"}"#).await.refused("saleQuantity");
    purchase_at(r#"{"nftid": "80001-1"}"#).await.refused("transactionHash");
    market.json("POST", "/api/nft/fixedsale/purchase", None, json!({})).await.expect(401);
    assert_eq!(market.records().await, 0, "refused records write nothing");

    // Bob records his purchase as a multipart form (the spec's default body): the answer is the NFT, his now.
    let (content_type, body) = Form::new()
        .text("formOfSale", "FIXEDPRICE")
        .text("nftid", "80001-1")
        .text("saleQuantity", "1")
        .text("transactionHash", &bought)
        .finish();
    let answer = market.raw("POST", "/api/nft/fixedsale/purchase", Some(&bob.token), &content_type, body).await.expect(200);
    assert_eq!(answer.message(), "Congratulations!!! You are now the owner of this NFT.");
    assert_eq!(answer.body()["currentOwner"]["userId"].as_str(), Some(bob.id.as_str()));
    assert_eq!(answer.body()["formOfSale"], "NOT_FOR_SALE");

    // Bob's retry, in any form of the hash, is answered as the first call was and appends nothing.
    for again in [bought.clone(), bought.to_uppercase().replace("0X", "0x")] {
        let answer = purchase(&market, &bob, "80001-1", &again).await.expect(200);
        assert_eq!(answer.message(), "Congratulations!!! You are now the owner of this NFT.");
        assert_eq!(answer.body()["currentOwner"]["userId"].as_str(), Some(bob.id.as_str()));
    }
    // The hash for another token or action, or by anyone else, is refused.
    purchase(&market, &bob, "80001-3", &bought).await.refused("concerns token 1, not token 3");
    market.json("PUT", "/api/nft/stopsale/80001-1", Some(&bob.token), json!({ "transactionHash": bought })).await.refused("changed hands");
    purchase(&market, &carol, "80001-1", &bought).await.refused("not a wallet linked to your account");
    assert_eq!(market.records().await, 1);

    // Even once Bob's wallet is linked to Dave's account instead, the purchase stays Bob's.
    market
        .json("PUT", "/api/account/disconnectwallet", Some(&bob.token), json!({ "walletAddress": market.address(&bob).to_string() }))
        .await
        .expect(200);
    let dave = market.user("dave", bob.account).await;
    purchase(&market, &dave, "80001-1", &bought).await.refused("is already recorded, for another account");
    assert_eq!(market.records().await, 1, "a refused replay appends nothing");
}

async fn bid(market: &Market, user: &User, nft: &str, amount: &str, tx: &str) -> helpers::Answer {
    market
        .form(
            "POST",
            "/api/nft/auction/placebid",
            Some(&user.token),
            &[("formOfSale", "AUCTION"), ("nftid", nft), ("bidAmount", amount), ("transactionHash", tx)],
        )
        .await
}

async fn my_bids(market: &Market, user: &User) -> Vec<(String, String, String)> {
    let answer = market.get("/api/nft/mybids?page=1", Some(&user.token)).await.expect(200);
    answer.body()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b["nftData"]["_id"], b["nftId"], "each bid carries its NFT card");
            (b["nftId"].as_str().unwrap().to_owned(), b["bidAmount"].as_str().unwrap().to_owned(), b["status"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bids_are_recorded_for_their_bidders_and_my_bids_show_each_ones_outcome() {
    let market = Market::start().await;
    let (alice, bob, carol) = (market.user("alice", 1).await, market.user("bob", 2).await, market.user("carol", 3).await);
    let (_, now) = market.chain.latest().await;
    // An auction: base 1, buy now 10, an hour long.
    market.transact(&alice, mint_call("ipfs://auction", 2, &[], now + 3600, matic(10), matic(100)), U256::ZERO).await;

    let first = hash(&market.transact(&bob, Marketplace::bidCall { tokenId: token(1) }, matic(10)).await);
    bid(&market, &bob, "80001-1", "2", &first).await.refused("not 2000000000000000000 wei");
    let answer = bid(&market, &bob, "80001-1", "1", &first).await.expect(200);
    assert_eq!(answer.message(), "Successfully bidded for the token");
    assert_eq!(answer.body()["highestBid"], "1");
    // A retry is answered as the first call was; the same hash with another amount is refused.
    assert_eq!(bid(&market, &bob, "80001-1", "1", &first).await.expect(200).body()["highestBid"], "1");
    bid(&market, &bob, "80001-1", "1.5", &first).await.refused("not 1500000000000000000 wei");
    assert_eq!(market.records().await, 1);

    // A bid under the minimum raise (5%) is refused by the chain: its record finds a failed receipt.
    let too_low = market.transact_failing(&carol, Marketplace::bidCall { tokenId: token(1) }, matic(10) + U256::from(1u64)).await;
    bid(&market, &carol, "80001-1", "1.000000000000000001", &too_low).await.refused("failed on chain");

    let second = hash(&market.transact(&carol, Marketplace::bidCall { tokenId: token(1) }, matic(20)).await);
    bid(&market, &bob, "80001-1", "2", &second).await.refused("not a wallet linked");
    bid(&market, &carol, "80001-1", "two", &second).await.refused("bidAmount");
    bid(&market, &carol, "80001-1", "2", &second).await.expect(200);
    assert_eq!(my_bids(&market, &bob).await, [("80001-1".into(), "1".into(), "REFUNDED".into())]);
    assert_eq!(my_bids(&market, &carol).await, [("80001-1".into(), "2".into(), "BID".into())]);
    // Bob's outbid row shows the top bid that beat it, and which auction it was for.
    let bobs = market.get("/api/nft/mybids", Some(&bob.token)).await.expect(200);
    let row = &bobs.body()["data"][0];
    assert_eq!(row["auctionHighestBid"], "2");
    assert_eq!(row["auctionHighestBidWei"], "2000000000000000000");
    assert_eq!(row["auctionId"], row["nftData"]["currentAuction"]["auctionId"], "the NFT's running auction");

    // Alice accepts carol's bid (no record call: the indexer records it).
    market.transact(&alice, Marketplace::acceptOfferCall { tokenId: token(1), accept: true }, U256::ZERO).await;
    market.indexed().await;
    assert_eq!(my_bids(&market, &carol).await, [("80001-1".into(), "2".into(), "ALLOTED".into())]);
    let page = market.get("/api/nft/mybids?page=1&limit=1", Some(&carol.token)).await.expect(200);
    assert_eq!((page.body()["totalItems"].as_i64(), page.body()["lastPage"].as_bool()), (Some(1), Some(true)));
    assert!(my_bids(&market, &alice).await.is_empty());
    market.get("/api/nft/mybids?limit=0", Some(&carol.token)).await.refused("limit");
    market.get("/api/nft/mybids", None).await.expect(401);
    assert_eq!(market.records().await, 2);
}

async fn update(market: &Market, user: &User, form_of_sale: &str, tx: &str) -> helpers::Answer {
    update_at(market, user, form_of_sale, "3", tx).await
}

async fn update_at(market: &Market, user: &User, form_of_sale: &str, fixed_price: &str, tx: &str) -> helpers::Answer {
    let body =
        json!({ "formOfSale": form_of_sale, "fixedPrice": fixed_price, "auctionStartPrice": 0, "saleCoin": 1, "transactionHash": tx });
    market.json("PUT", "/api/nft/update/80001-1", Some(&user.token), body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sale_updates_stops_and_burns_are_recorded_only_for_the_owner() {
    let market = Market::start().await;
    let (alice, bob) = (market.user("alice", 1).await, market.user("bob", 2).await);
    // Token 1 not for sale, token 2 at 1 MATIC.
    market.transact(&alice, mint_call("ipfs://one", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    market.transact(&alice, mint_call("ipfs://two", 1, &[], 0, U256::ZERO, matic(10)), U256::ZERO).await;

    // Alice lists token 1 at a fixed price.
    let listing =
        Marketplace::toggleForSaleCall { tokenId: token(1), saleType: 1, price: matic(30), auctionEndTime: 0, basePrice: U256::ZERO };
    let listed = hash(&market.transact(&alice, listing, U256::ZERO).await);
    update(&market, &bob, "FIXEDPRICE", &listed).await.refused("not a wallet linked");
    update(&market, &alice, "AUCTION", &listed).await.refused("set the sale to FixedPrice");
    update(&market, &alice, "SOMETIMES", &listed).await.refused("formOfSale");
    market
        .json(
            "PUT",
            "/api/nft/update/80001-1",
            Some(&alice.token),
            json!({ "formOfSale": "FIXEDPRICE", "fixedPrice": [], "transactionHash": listed }),
        )
        .await
        .refused("fixedPrice");
    update_at(&market, &alice, "FIXEDPRICE", "2.5", &listed)
        .await
        .refused("set the price to 3000000000000000000 wei, not 2500000000000000000 wei");
    // An auction end is ISO 8601, as answers show it, or the spec's milliseconds; nothing else.
    let with_end = |end: &str| json!({ "formOfSale": "FIXEDPRICE", "fixedPrice": "3", "auctionEndHours": end, "transactionHash": listed });
    market.json("PUT", "/api/nft/update/80001-1", Some(&alice.token), with_end("next week")).await.refused("auctionEndHours");
    assert_eq!(market.records().await, 0, "refused records write nothing");
    let answer = update(&market, &alice, "FIXEDPRICE", &listed).await.expect(200);
    assert_eq!((answer.message(), answer.body()["fixedPrice"].as_str()), ("NFT updated!", Some("3")));
    for end in ["2030-01-01T00:00:00Z", "1893456000000"] {
        market.json("PUT", "/api/nft/update/80001-1", Some(&alice.token), with_end(end)).await.expect(200);
    }
    // Her retry is answered as the first; Bob's replay is not.
    let again = update(&market, &alice, "FIXEDPRICE", &listed).await.expect(200);
    assert_eq!((again.message(), again.body()), (answer.message(), answer.body()));
    update(&market, &bob, "FIXEDPRICE", &listed).await.refused("not a wallet linked");
    assert_eq!(market.records().await, 1);

    // Someone else's NFT: Bob's own purchase of token 2 also takes it off sale, but it is no stop of his.
    let bought = hash(&market.transact(&bob, Marketplace::buyTokenCall { tokenId: token(2) }, matic(10)).await);
    market.json("PUT", "/api/nft/stopsale/80001-2", Some(&bob.token), json!({ "transactionHash": bought })).await.refused("changed hands");
    // Nor can he stop Alice's sale on chain.
    let refused = market.transact_failing(&bob, stop_sale_call(1), U256::ZERO).await;
    market
        .json("PUT", "/api/nft/stopsale/80001-1", Some(&bob.token), json!({ "transactionHash": refused }))
        .await
        .refused("failed on chain");

    let stopped = hash(&market.transact(&alice, stop_sale_call(1), U256::ZERO).await);
    market
        .json("PUT", "/api/nft/stopsale/80001-1", Some(&alice.token), json!({ "transactionHash": listed }))
        .await
        .refused("set the sale to FixedPrice");
    let answer =
        market.json("PUT", "/api/nft/stopsale/80001-1", Some(&alice.token), json!({ "transactionHash": stopped })).await.expect(200);
    assert_eq!((answer.message(), answer.body()["formOfSale"].as_str()), ("Sale Stopped!", Some("NOT_FOR_SALE")));
    let again =
        market.json("PUT", "/api/nft/stopsale/80001-1", Some(&alice.token), json!({ "transactionHash": stopped })).await.expect(200);
    assert_eq!((again.message(), again.body()), (answer.message(), answer.body()));
    assert_eq!(market.records().await, 2);

    // Burning: Bob cannot burn Alice's token; Alice burns it and records it by query string.
    let refused = market.transact_failing(&bob, Marketplace::burnCall { tokenId: token(1) }, U256::ZERO).await;
    market
        .json("DELETE", "/api/nft/burnnft/80001-1", Some(&bob.token), json!({ "transactionHash": refused }))
        .await
        .refused("failed on chain");
    let burned = hash(&market.transact(&alice, Marketplace::burnCall { tokenId: token(1) }, U256::ZERO).await);
    market
        .send(Market::request("DELETE", "/api/nft/burnnft/80001-1", Some(&alice.token)).body(axum::body::Body::empty()).unwrap())
        .await
        .refused("transactionHash");
    market
        .json("DELETE", "/api/nft/burnnft/80001-2", Some(&alice.token), json!({ "transactionHash": burned }))
        .await
        .refused("concerns token 1");
    let uri = format!("/api/nft/burnnft/80001-1?transactionHash={burned}");
    let answer =
        market.send(Market::request("DELETE", &uri, Some(&alice.token)).body(axum::body::Body::empty()).unwrap()).await.expect(200);
    assert_eq!(answer.message(), "NFT Burned!");
    market.get("/api/nft/detail/80001-1", None).await.expect(404);
    let again =
        market.json("DELETE", "/api/nft/burnnft/80001-1", Some(&alice.token), json!({ "transactionHash": burned })).await.expect(200);
    assert_eq!((again.message(), again.body()), ("NFT Burned!", &serde_json::Value::Null));
    market
        .json("DELETE", "/api/nft/burnnft/80001-1", Some(&bob.token), json!({ "transactionHash": burned }))
        .await
        .refused("not a wallet linked");
    assert_eq!(market.records().await, 3);
}
