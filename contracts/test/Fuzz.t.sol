// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {Vm} from "./utils/Vm.sol";

/// @notice Property tests over prices, fees, royalties and timings.
contract FuzzTest is MarketplaceTestBase {
    uint256 internal constant MAX_PRICE = 3e28; // far above any real price, below the contract's MAX_PRICE / 2

    function _mintWith(uint96 bps0, uint96 bps1, Marketplace.SaleType saleType, uint64 endTime, uint256 base, uint256 price)
        internal
        returns (uint256)
    {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, bps0, royaltyB, bps1);
        vm.prank(alice);
        return market.mint(URI, saleType, receivers, bps, endTime, base, price);
    }

    /// The parts of a fixed-price sale add up to the price, each is paid to its receiver, nothing stays.
    function testFuzz_fixedSale_splitAddsUpToThePrice(uint256 price, uint96 fee, uint96 bps0, uint96 bps1) public {
        price = bound(price, 1, MAX_PRICE);
        fee = uint96(bound(fee, 0, 1_000));
        bps0 = uint96(bound(bps0, 1, 8_999));
        bps1 = uint96(bound(bps1, 1, 9_000 - bps0));
        vm.prank(admin);
        market.setServiceFeeBps(fee);
        uint256 tokenId = _mintWith(bps0, bps1, Marketplace.SaleType.FixedPrice, 0, 0, price);
        vm.deal(bob, price);
        uint256 aliceBefore = alice.balance;

        vm.recordLogs();
        vm.prank(bob);
        market.buyToken{value: price}(tokenId);

        uint256 feePaid = admin.balance;
        uint256 r0 = royaltyA.balance;
        uint256 r1 = royaltyB.balance;
        uint256 proceeds = alice.balance - aliceBefore;
        assertEq(feePaid, (price * fee) / 10_000, "fee");
        assertEq(r0, (price * bps0) / 10_000, "royalty 0");
        assertEq(r1, (price * bps1) / 10_000, "royalty 1");
        assertEq(feePaid + r0 + r1 + proceeds, price, "split == price");
        assertEq(address(market).balance, 0, "nothing left behind");
        _assertSoldEvent(price, feePaid, r0 + r1, proceeds);
    }

    /// The same for an auction settled at any winning bid.
    function testFuzz_settledAuction_splitAddsUpToTheBid(uint256 base, uint256 bidAmount, uint96 bps0) public {
        base = bound(base, 1, MAX_PRICE / 2);
        bidAmount = bound(bidAmount, base, MAX_PRICE - 1);
        bps0 = uint96(bound(bps0, 1, 8_999));
        uint256 tokenId =
            _mintWith(bps0, 1, Marketplace.SaleType.Auction, uint64(block.timestamp + 1 days), base, MAX_PRICE);
        vm.deal(bob, bidAmount);
        _bid(bob, tokenId, bidAmount);
        vm.warp(_endOf(tokenId));
        uint256 aliceBefore = alice.balance;
        market.settleAuction(tokenId);
        uint256 total = admin.balance + royaltyA.balance + royaltyB.balance + (alice.balance - aliceBefore);
        assertEq(total, bidAmount);
        assertEq(address(market).balance, 0);
        assertEq(market.ownerOf(tokenId), bob);
    }

    /// @dev The recorded Sold event carries the same split as the balances moved.
    function _assertSoldEvent(uint256 price, uint256 fee, uint256 royalties, uint256 proceeds) internal {
        bytes32 topic = keccak256("Sold(uint256,uint256,address,address,uint256,uint256,uint256,uint256)");
        Vm.Log[] memory logs = vm.getRecordedLogs();
        uint256 seen;
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].topics[0] != topic) continue;
            seen += 1;
            (, uint256 p, uint256 f, uint256 r, uint256 s) =
                abi.decode(logs[i].data, (address, uint256, uint256, uint256, uint256));
            assertEq(p, price, "Sold.price");
            assertEq(f, fee, "Sold.fee");
            assertEq(r, royalties, "Sold.royalties");
            assertEq(s, proceeds, "Sold.sellerProceeds");
        }
        assertEq(seen, 1, "one Sold event");
    }

    /// Fee + royalties can never exceed the price, whatever the fee and royalties the bounds allow.
    function testFuzz_feeAndRoyaltiesNeverExceedThePrice(uint256 price, uint96 fee, uint96 bps0, uint96 bps1)
        public
        view
    {
        price = bound(price, 1, MAX_PRICE);
        fee = uint96(bound(fee, 0, market.MAX_SERVICE_FEE_BPS()));
        bps0 = uint96(bound(bps0, 1, 8_999));
        bps1 = uint96(bound(bps1, 1, 9_000 - bps0));
        uint256 taken = (price * fee) / 10_000 + (price * bps0) / 10_000 + (price * bps1) / 10_000;
        assertLe(taken, price, "fee + royalties <= price");
    }

    /// Royalty rows are accepted exactly when each is > 0 and their sum <= 90%.
    function testFuzz_royaltyBounds(uint96 bps0, uint96 bps1) public {
        bps0 = uint96(bound(bps0, 0, 12_000));
        bps1 = uint96(bound(bps1, 0, 12_000));
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, bps0, royaltyB, bps1);
        bool valid = bps0 > 0 && bps1 > 0 && uint256(bps0) + bps1 <= 9_000;
        if (!valid) vm.expectRevert();
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        if (valid) assertEq(market.lastTokenId(), 1);
    }

    /// The service fee is accepted exactly up to 10%.
    function testFuzz_feeBound(uint96 fee) public {
        if (fee > 1_000) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceFeeTooHigh.selector, fee));
        }
        vm.prank(admin);
        market.setServiceFeeBps(fee);
        if (fee <= 1_000) assertEq(market.serviceFeeBps(), fee);
    }

    /// A purchase goes through exactly when msg.value equals the price.
    function testFuzz_buyToken_needsTheExactValue(uint256 price, uint256 sent) public {
        price = bound(price, 1, MAX_PRICE);
        sent = bound(sent, 0, MAX_PRICE);
        uint256 tokenId = _mintFixed(alice, price);
        vm.deal(bob, sent);
        if (sent != price) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, price, sent));
        }
        vm.prank(bob);
        market.buyToken{value: sent}(tokenId);
        assertEq(market.ownerOf(tokenId), sent == price ? bob : alice);
    }

    /// A bid over a top bid is accepted exactly from top + ceil(5%) (at least +1 wei) up to below buy-now.
    function testFuzz_minimumRaise(uint256 top, uint256 next) public {
        top = bound(top, 1, MAX_PRICE);
        uint256 minimum = top + (top * 500 + 9_999) / 10_000;
        assertGt(minimum, top, "the raise is at least 1 wei");
        assertGe(minimum * 10_000, top * 10_500, "the raise is at least 5%");
        next = bound(next, top, minimum + 10);
        uint256 tokenId = _mint(alice, Marketplace.SaleType.Auction, uint64(block.timestamp + 1 days), top, MAX_PRICE * 2);
        vm.deal(bob, top);
        _bid(bob, tokenId, top);
        assertEq(market.minimumBid(tokenId), minimum);
        vm.deal(carol, next);
        if (next < minimum) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBidTooLow.selector, minimum, next));
        }
        _bid(carol, tokenId, next);
        assertEq(_auction(tokenId).highestBidder, next >= minimum ? carol : bob);
    }

    /// After any bid the end is max(old end, bid time + 10 minutes); it never moves earlier.
    function testFuzz_antiSniping(uint256 duration, uint256 bidAfter) public {
        duration = bound(duration, 1, 168 hours);
        bidAfter = bound(bidAfter, 0, duration - 1);
        uint64 endTime = uint64(block.timestamp + duration);
        uint256 tokenId = _mint(alice, Marketplace.SaleType.Auction, endTime, 1 ether, 100 ether);
        vm.warp(block.timestamp + bidAfter);
        _bid(bob, tokenId, 1 ether);
        uint256 expected = endTime - block.timestamp < 10 minutes ? block.timestamp + 10 minutes : endTime;
        assertEq(_endOf(tokenId), expected);
        assertGe(_endOf(tokenId), endTime, "never earlier");
        assertGe(_endOf(tokenId), block.timestamp + 1, "still open just after the bid");
    }

    /// After a rejection of the top bid the end is max(old end, rejection time + 10 minutes), as after a bid.
    function testFuzz_antiSniping_onRejection(uint256 duration, uint256 rejectAfter) public {
        duration = bound(duration, 1, 168 hours);
        uint256 tokenId = _mint(alice, Marketplace.SaleType.Auction, uint64(block.timestamp + duration), 1 ether, 100 ether);
        _bid(bob, tokenId, 1 ether);
        uint256 endTime = _endOf(tokenId);
        rejectAfter = bound(rejectAfter, 0, endTime - block.timestamp - 1);
        vm.warp(block.timestamp + rejectAfter);
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
        uint256 expected = endTime - block.timestamp < 10 minutes ? block.timestamp + 10 minutes : endTime;
        assertEq(_endOf(tokenId), expected);
        assertGe(_endOf(tokenId), endTime, "never earlier");
        assertGe(_endOf(tokenId), block.timestamp + 1, "still open just after the rejection");
    }

    /// The market's own address is refused as a royalty receiver, in either row, whatever the shares.
    function testFuzz_marketIsNeverARoyaltyReceiver(uint96 bps0, uint96 bps1, bool first) public {
        bps0 = uint96(bound(bps0, 1, 4_500));
        bps1 = uint96(bound(bps1, 1, 4_500));
        (address[] memory receivers, uint96[] memory bps) =
            first ? _two(address(market), bps0, royaltyB, bps1) : _two(royaltyA, bps0, address(market), bps1);
        vm.expectRevert(Marketplace.MarketplaceSelfRoyaltyReceiver.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    /// An auction can start exactly when its end is in (now, now + 168 hours].
    function testFuzz_auctionEndWindow(uint256 offset, bool past) public {
        offset = bound(offset, 0, 400 hours);
        uint256 endTime = past ? block.timestamp - (offset % 1 days) : block.timestamp + offset;
        bool valid = !past && offset > 0 && offset <= 168 hours;
        if (!valid) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidEndTime.selector, uint64(endTime)));
        }
        _mint(alice, Marketplace.SaleType.Auction, uint64(endTime), 1, 2);
    }

    /// Bids after the end are refused, however late.
    function testFuzz_noBidAfterTheEnd(uint256 lateBy) public {
        lateBy = bound(lateBy, 0, 365 days);
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId) + lateBy);
        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceAuctionExpired.selector, tokenId, uint64(_endOf(tokenId)))
        );
        _bid(bob, tokenId, 2 ether);
    }

    /// ERC-2981 returns the total of the rows for any price.
    function testFuzz_royaltyInfo(uint256 price, uint96 bps0, uint96 bps1) public {
        price = bound(price, 0, MAX_PRICE);
        bps0 = uint96(bound(bps0, 1, 8_999));
        bps1 = uint96(bound(bps1, 1, 9_000 - bps0));
        uint256 tokenId = _mintWith(bps0, bps1, Marketplace.SaleType.NotForSale, 0, 0, 0);
        (address receiver, uint256 amount) = market.royaltyInfo(tokenId, price);
        assertEq(receiver, market.royaltySplitOf(tokenId), "two receivers: their split");
        assertEq(amount, (price * bps0) / 10_000 + (price * bps1) / 10_000);
    }
}
