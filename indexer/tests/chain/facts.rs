//! Every marketplace operation done through alloy shows up as the right chain facts, with the
//! right values, in the right streams, in chain order.

use alloy::primitives::{Address, U256};
use domain::chain::{ChainEvent, Origin, Royalty, SaleType, chain_event_id, nft_stream};
use indexer::{
    bindings::Marketplace,
    test_utils::{CHAIN_ID, TestChain, mint_call, read_log, sqlite_store, stop_sale_call},
};

use crate::helpers::{chain_records, index_once, init_tracing, origin, stream, without_origin};

const ETH: u128 = 1_000_000_000_000_000_000;

fn wei(amount: u128) -> U256 {
    U256::from(amount)
}

fn hex(address: Address) -> String {
    format!("{address:#x}")
}

fn blank() -> Origin {
    Origin { block_number: 0, block_time: 0, tx_hash: String::new(), log_index: 0 }
}

fn sale(token: u64, sale_type: SaleType, price: u128, base: u128, end: u64, auction: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type,
        price: price.to_string(),
        base_price: base.to_string(),
        end_time: end as i64,
        auction_id: auction.to_string(),
        origin: blank(),
    }
}

fn snapshot(token: u64, auction: u64, fee_bps: u32) -> ChainEvent {
    ChainEvent::ServiceFeeSnapshotted { token_id: token.to_string(), auction_id: auction.to_string(), fee_bps, origin: blank() }
}

fn not_for_sale(token: u64) -> ChainEvent {
    sale(token, SaleType::NotForSale, 0, 0, 0, 0)
}

fn transferred(token: u64, from: Address, to: Address) -> ChainEvent {
    ChainEvent::NftTransferred { token_id: token.to_string(), from: hex(from), to: hex(to), origin: blank() }
}

fn bid(event: &str, token: u64, auction: u64, bidder: Address, amount: u128, end: u64) -> ChainEvent {
    let (token_id, auction_id, bidder, amount) = (token.to_string(), auction.to_string(), hex(bidder), amount.to_string());
    match event {
        "placed" => ChainEvent::BidPlaced { token_id, auction_id, bidder, amount, end_time: end as i64, origin: blank() },
        "refunded" => ChainEvent::BidRefunded { token_id, auction_id, bidder, amount, origin: blank() },
        "rejected" => ChainEvent::BidRejected { token_id, auction_id, bidder, amount, origin: blank() },
        other => unreachable!("{other}"),
    }
}

#[allow(clippy::too_many_arguments)]
fn sold(token: u64, auction: u64, buyer: Address, seller: Address, price: u128, fee: u128, royalties: u128) -> ChainEvent {
    ChainEvent::NftSold {
        token_id: token.to_string(),
        auction_id: auction.to_string(),
        buyer: hex(buyer),
        seller: hex(seller),
        price: price.to_string(),
        fee: fee.to_string(),
        royalties: royalties.to_string(),
        seller_proceeds: (price - fee - royalties).to_string(),
        origin: blank(),
    }
}

fn ended(token: u64, auction: u64, winner: Address, amount: u128) -> ChainEvent {
    ChainEvent::AuctionEnded {
        token_id: token.to_string(),
        auction_id: auction.to_string(),
        winner: hex(winner),
        amount: amount.to_string(),
        origin: blank(),
    }
}

async fn nft(store: &dyn domain::EventStore, token: u64) -> Vec<ChainEvent> {
    stream(store, &nft_stream(CHAIN_ID, &token.to_string())).await
}

#[tokio::test]
async fn every_marketplace_operation_becomes_the_right_facts_in_the_right_streams() {
    init_tracing();
    // Arrange: a chain where every operation of the market happens once.
    let chain = TestChain::start().await;
    let [admin, creator, alice, bob, royalty_a, royalty_b, ..] = chain.accounts[..] else { unreachable!() };
    let (_, now) = chain.latest().await;
    let auction_end = now + 3_600;

    // 1: fixed price with two royalty rows (5% and 2.5%); 2: auction; 3: not for sale.
    chain.transact(creator, mint_call("ipfs://one", 1, &[(royalty_a, 500), (royalty_b, 250)], 0, U256::ZERO, wei(ETH)), U256::ZERO).await;
    chain.transact(creator, mint_call("ipfs://two", 2, &[], auction_end, wei(ETH / 10), wei(ETH)), U256::ZERO).await;
    chain.transact(creator, mint_call("ipfs://three", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    // The fee rises to 10%: 1 and 2 keep the 5% of their start, what starts later takes 10%.
    chain.transact(admin, Marketplace::setServiceFeeBpsCall { feeBps: alloy::primitives::aliases::U96::from(1_000) }, U256::ZERO).await;
    // List 3, change 1's price, buy 1.
    chain
        .transact(
            creator,
            Marketplace::toggleForSaleCall {
                tokenId: U256::from(3),
                saleType: 1,
                price: wei(ETH / 2),
                auctionEndTime: 0,
                basePrice: U256::ZERO,
            },
            U256::ZERO,
        )
        .await;
    chain.transact(creator, Marketplace::changeTokenPriceCall { tokenId: U256::from(1), newPrice: wei(2 * ETH) }, U256::ZERO).await;
    let buy = chain.transact(alice, Marketplace::buyTokenCall { tokenId: U256::from(1) }, wei(2 * ETH)).await;
    // Bid on 2, outbid, reject, bid again, accept.
    chain.transact(alice, Marketplace::bidCall { tokenId: U256::from(2) }, wei(ETH / 10)).await;
    chain.transact(bob, Marketplace::bidCall { tokenId: U256::from(2) }, wei(ETH / 5)).await;
    chain.transact(creator, Marketplace::acceptOfferCall { tokenId: U256::from(2), accept: false }, U256::ZERO).await;
    chain.transact(alice, Marketplace::bidCall { tokenId: U256::from(2) }, wei(3 * ETH / 20)).await;
    chain.transact(creator, Marketplace::acceptOfferCall { tokenId: U256::from(2), accept: true }, U256::ZERO).await;
    // 4: an auction that ends with a bid and is settled by a third party.
    let (_, now) = chain.latest().await;
    let short_end = now + 100;
    chain.transact(creator, mint_call("ipfs://four", 2, &[(royalty_a, 1_000)], short_end, wei(ETH / 10), wei(ETH)), U256::ZERO).await;
    chain.transact(bob, Marketplace::bidCall { tokenId: U256::from(4) }, wei(ETH / 4)).await;
    // A bid in the last ten minutes moves the end to ten minutes after it (anti-sniping)...
    let (_, bid_time) = chain.latest().await;
    let extended_end = bid_time + 600;
    // ...and so does a rejection of the top bid in the last ten minutes.
    chain.advance_time(60).await;
    chain.transact(creator, Marketplace::acceptOfferCall { tokenId: U256::from(4), accept: false }, U256::ZERO).await;
    let (_, reject_time) = chain.latest().await;
    let rejected_end = reject_time + 600;
    chain.advance_time(60).await;
    chain.transact(bob, Marketplace::bidCall { tokenId: U256::from(4) }, wei(ETH / 4)).await;
    let (_, second_bid_time) = chain.latest().await;
    let final_end = second_bid_time + 600;
    chain.advance_time(700).await;
    chain.transact(alice, Marketplace::settleAuctionCall { tokenId: U256::from(4) }, U256::ZERO).await;
    // Stop 3's sale, transfer 1, burn 1.
    chain.transact(creator, stop_sale_call(3), U256::ZERO).await;
    chain.transact(alice, Marketplace::transferFromCall { from: alice, to: bob, tokenId: U256::from(1) }, U256::ZERO).await;
    chain.transact(bob, Marketplace::burnCall { tokenId: U256::from(1) }, U256::ZERO).await;
    // The admin hands over in two steps: proposes bob, who accepts.
    chain.transact(admin, Marketplace::proposeAdminCall { newAdmin: bob }, U256::ZERO).await;
    chain.transact(bob, Marketplace::acceptAdminCall {}, U256::ZERO).await;
    let (head, _) = chain.latest().await;

    // Act
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let indexed = index_once(chain.indexer_config(), store.clone()).await;

    // Assert
    assert_eq!(indexed, head);
    let market = stream(&*store, &format!("market-{CHAIN_ID}")).await;
    assert_eq!(
        market.into_iter().map(without_origin).collect::<Vec<_>>(),
        vec![
            ChainEvent::AdminChanged { admin: hex(admin), origin: blank() },
            ChainEvent::ServiceFeeChanged { fee_bps: 500, origin: blank() },
            ChainEvent::ServiceFeeChanged { fee_bps: 1_000, origin: blank() },
            ChainEvent::AdminProposed { pending_admin: hex(bob), origin: blank() },
            ChainEvent::AdminChanged { admin: hex(bob), origin: blank() },
        ]
    );

    let fee = |price: u128| price * 500 / 10_000;
    let raised_fee = |price: u128| price * 1_000 / 10_000;
    let one = nft(&*store, 1).await;
    assert_eq!(
        one.iter().cloned().map(without_origin).collect::<Vec<_>>(),
        vec![
            ChainEvent::NftMinted {
                token_id: "1".into(),
                creator: hex(creator),
                token_uri: "ipfs://one".into(),
                royalties: vec![Royalty { receiver: hex(royalty_a), bps: 500 }, Royalty { receiver: hex(royalty_b), bps: 250 }],
                origin: blank(),
            },
            sale(1, SaleType::FixedPrice, ETH, 0, 0, 0),
            snapshot(1, 0, 500),
            ChainEvent::PriceChanged { token_id: "1".into(), price: (2 * ETH).to_string(), origin: blank() },
            not_for_sale(1),
            transferred(1, creator, alice),
            sold(1, 0, alice, creator, 2 * ETH, fee(2 * ETH), 2 * ETH * 750 / 10_000),
            ChainEvent::RoyaltyPaid {
                token_id: "1".into(),
                receiver: hex(royalty_a),
                amount: (2 * ETH * 500 / 10_000).to_string(),
                origin: blank()
            },
            ChainEvent::RoyaltyPaid {
                token_id: "1".into(),
                receiver: hex(royalty_b),
                amount: (2 * ETH * 250 / 10_000).to_string(),
                origin: blank()
            },
            transferred(1, alice, bob),
            ChainEvent::NftBurned { token_id: "1".into(), owner: hex(bob), origin: blank() },
        ]
    );
    // The sale's coordinates are the buy transaction's.
    let sale_origin = origin(&one[6]).unwrap();
    assert_eq!(sale_origin.tx_hash, format!("{:#x}", buy.transaction_hash));
    assert_eq!(sale_origin.block_number, buy.block_number.unwrap());

    let two = nft(&*store, 2).await.into_iter().map(without_origin).collect::<Vec<_>>();
    assert_eq!(
        two,
        vec![
            ChainEvent::NftMinted {
                token_id: "2".into(),
                creator: hex(creator),
                token_uri: "ipfs://two".into(),
                royalties: vec![],
                origin: blank()
            },
            sale(2, SaleType::Auction, ETH, ETH / 10, auction_end, 1),
            snapshot(2, 1, 500),
            bid("placed", 2, 1, alice, ETH / 10, auction_end),
            bid("placed", 2, 1, bob, ETH / 5, auction_end),
            bid("refunded", 2, 1, alice, ETH / 10, 0),
            bid("rejected", 2, 1, bob, ETH / 5, 0),
            bid("placed", 2, 1, alice, 3 * ETH / 20, auction_end),
            ended(2, 1, alice, 3 * ETH / 20),
            not_for_sale(2),
            transferred(2, creator, alice),
            sold(2, 1, alice, creator, 3 * ETH / 20, fee(3 * ETH / 20), 0),
        ]
    );

    let three = nft(&*store, 3).await.into_iter().map(without_origin).collect::<Vec<_>>();
    assert_eq!(
        three,
        vec![
            ChainEvent::NftMinted {
                token_id: "3".into(),
                creator: hex(creator),
                token_uri: "ipfs://three".into(),
                royalties: vec![],
                origin: blank()
            },
            sale(3, SaleType::FixedPrice, ETH / 2, 0, 0, 0),
            snapshot(3, 0, 1_000),
            not_for_sale(3),
        ]
    );

    let four = nft(&*store, 4).await.into_iter().map(without_origin).collect::<Vec<_>>();
    assert_eq!(
        four,
        vec![
            ChainEvent::NftMinted {
                token_id: "4".into(),
                creator: hex(creator),
                token_uri: "ipfs://four".into(),
                royalties: vec![Royalty { receiver: hex(royalty_a), bps: 1_000 }],
                origin: blank(),
            },
            sale(4, SaleType::Auction, ETH, ETH / 10, short_end, 2),
            snapshot(4, 2, 1_000),
            bid("placed", 4, 2, bob, ETH / 4, extended_end),
            bid("rejected", 4, 2, bob, ETH / 4, 0),
            ChainEvent::AuctionExtended { token_id: "4".into(), auction_id: "2".into(), end_time: rejected_end as i64, origin: blank() },
            bid("placed", 4, 2, bob, ETH / 4, final_end),
            ended(4, 2, bob, ETH / 4),
            not_for_sale(4),
            transferred(4, creator, bob),
            sold(4, 2, bob, creator, ETH / 4, raised_fee(ETH / 4), ETH / 4 / 10),
            ChainEvent::RoyaltyPaid { token_id: "4".into(), receiver: hex(royalty_a), amount: (ETH / 40).to_string(), origin: blank() },
        ]
    );

    // Chain order within every stream, and one checkpoint per block naming exactly its events.
    let log = read_log(&*store).await;
    let mut facts_by_block: std::collections::BTreeMap<u64, Vec<uuid::Uuid>> = Default::default();
    for event in log.iter().filter(|e| !e.stream_id.starts_with("chain-")) {
        let fact = event.payload::<ChainEvent>().unwrap();
        let origin = origin(&fact).unwrap();
        let metadata = event.metadata().unwrap();
        let coordinates = metadata.chain.expect("chain coordinates");
        assert_eq!(metadata.actor.as_deref(), Some("indexer"));
        assert_eq!((coordinates.block_number, coordinates.log_index), (origin.block_number, origin.log_index));
        assert_eq!(event.event_id, chain_event_id(CHAIN_ID, &coordinates.block_hash, &origin.tx_hash, origin.log_index, 0));
        facts_by_block.entry(origin.block_number).or_default().push(event.event_id);
    }
    for stream_events in log
        .iter()
        .fold(std::collections::BTreeMap::<&str, Vec<(u64, u64)>>::new(), |mut acc, e| {
            if let Some(o) = origin(&e.payload::<ChainEvent>().unwrap()) {
                acc.entry(&e.stream_id).or_default().push((o.block_number, o.log_index));
            }
            acc
        })
        .values()
    {
        assert!(stream_events.windows(2).all(|w| w[0] < w[1]), "chain order: {stream_events:?}");
    }
    let records = chain_records(&*store).await;
    let numbers: Vec<u64> = records
        .iter()
        .map(|r| match r {
            ChainEvent::BlockIndexed { number, event_ids, .. } => {
                let mut expected = facts_by_block.get(number).cloned().unwrap_or_default();
                let mut actual = event_ids.clone();
                expected.sort();
                actual.sort();
                assert_eq!(actual, expected, "checkpoint of block {number}");
                *number
            }
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(numbers, (chain.deployment_block..=head).collect::<Vec<_>>());
}
