// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {NoReceiver} from "./helpers/Receivers.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

contract BuyTokenTest is MarketplaceTestBase {
    function test_buyToken_fixedPrice_transfersAndPaysEveryone() public {
        uint256 tokenId = _mintFixed(alice, 2 ether);
        (uint256 fee, uint256 r0, uint256 r1, uint256 proceeds) = _split(2 ether);
        assertEq(fee + r0 + r1 + proceeds, 2 ether);
        uint256 aliceBefore = alice.balance;
        uint256 bobBefore = bob.balance;

        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, bob, tokenId);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 0, bob, alice, 2 ether, fee, r0 + r1, proceeds);
        vm.expectEmit(true, true, true, true, address(market));
        emit RoyaltyPaid(tokenId, royaltyA, r0);
        vm.expectEmit(true, true, true, true, address(market));
        emit RoyaltyPaid(tokenId, royaltyB, r1);
        vm.prank(bob);
        market.buyToken{value: 2 ether}(tokenId);

        assertEq(market.ownerOf(tokenId), bob);
        assertEq(bobBefore - bob.balance, 2 ether);
        assertEq(alice.balance - aliceBefore, proceeds);
        assertEq(admin.balance, fee);
        assertEq(royaltyA.balance, r0);
        assertEq(royaltyB.balance, r1);
        assertEq(address(market).balance, 0);
        Marketplace.TokenInfo memory info = _token(tokenId);
        assertFalse(info.forSale);
        assertEq(info.price, 0);
        assertEq(info.previousOwner, alice);
        assertEq(info.numberOfTransfers, 1);
    }

    function test_buyToken_resale_paysRoyaltiesAgainAndTheNewSeller() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        vm.prank(bob);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 4 ether, 0, 0);
        uint256 bobBefore = bob.balance;
        uint256 royaltyBefore = royaltyA.balance;
        vm.prank(carol);
        market.buyToken{value: 4 ether}(tokenId);
        (,,, uint256 proceeds) = _split(4 ether);
        assertEq(bob.balance - bobBefore, proceeds);
        assertEq(royaltyA.balance - royaltyBefore, 0.4 ether);
        Marketplace.TokenInfo memory info = _token(tokenId);
        assertEq(info.previousOwner, bob);
        assertEq(info.numberOfTransfers, 2);
        assertEq(info.mintedBy, alice);
    }

    function test_buyToken_withAZeroFee_paysNoFee() public {
        vm.prank(admin);
        market.setServiceFeeBps(0);
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        assertEq(admin.balance, 0);
    }

    function test_buyToken_wrongValue_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, 1 ether, 1 ether - 1));
        vm.prank(bob);
        market.buyToken{value: 1 ether - 1}(tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, 1 ether, 1 ether + 1));
        vm.prank(bob);
        market.buyToken{value: 1 ether + 1}(tokenId);
    }

    function test_buyToken_notForSale_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotForSale.selector, tokenId));
        vm.prank(bob);
        market.buyToken{value: 0}(tokenId);
    }

    function test_buyToken_byTheOwner_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOwnerCannotBuy.selector, tokenId));
        vm.prank(alice);
        market.buyToken{value: 1 ether}(tokenId);
    }

    function test_buyToken_unknownToken_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 8));
        vm.prank(bob);
        market.buyToken{value: 1 ether}(8);
    }

    function test_buyToken_byAContractWithoutOnERC721Received_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        NoReceiver buyer = new NoReceiver();
        vm.deal(address(buyer), 1 ether);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InvalidReceiver.selector, address(buyer)));
        vm.prank(address(buyer));
        market.buyToken{value: 1 ether}(tokenId);
    }

    function test_buyToken_buyNowDuringAnAuction_refundsTheTopBidderAndSells() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        uint256 bobBefore = bob.balance;
        uint256 aliceBefore = alice.balance;
        (uint256 fee, uint256 r0, uint256 r1, uint256 proceeds) = _split(10 ether);

        vm.expectEmit(true, true, true, true, address(market));
        emit BidRefunded(tokenId, 1, bob, 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionEnded(tokenId, 1, carol, 10 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, carol, tokenId);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 1, carol, alice, 10 ether, fee, r0 + r1, proceeds);
        vm.prank(carol);
        market.buyToken{value: 10 ether}(tokenId);

        assertEq(market.ownerOf(tokenId), carol);
        assertEq(bob.balance - bobBefore, 2 ether);
        assertEq(alice.balance - aliceBefore, proceeds);
        assertEq(market.totalEscrowed(), 0);
        assertEq(address(market).balance, 0);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertTrue(auction.ended);
        assertTrue(auction.sold);
        assertEq(auction.highestBidder, carol);
        assertEq(auction.highestBid, 10 ether);
    }

    function test_buyToken_buyNowByTheTopBidder_refundsTheirBid() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        uint256 bobBefore = bob.balance;
        vm.prank(bob);
        market.buyToken{value: 10 ether}(tokenId);
        assertEq(bobBefore - bob.balance, 8 ether, "paid 10, got 2 back");
        assertEq(market.ownerOf(tokenId), bob);
    }

    function test_buyToken_buyNowAfterTheEnd_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.warp(endTime);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionExpired.selector, tokenId, endTime));
        vm.prank(bob);
        market.buyToken{value: 10 ether}(tokenId);
    }

    function test_buyToken_buyNowWithTheWrongValue_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, 10 ether, 9 ether));
        vm.prank(bob);
        market.buyToken{value: 9 ether}(tokenId);
    }
}

contract BidTest is MarketplaceTestBase {
    function test_bid_first_atTheBasePrice_isEscrowed() public {
        uint256 tokenId = _mintAuction(alice);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.expectEmit(true, true, true, true, address(market));
        emit BidPlaced(tokenId, 1, bob, 1 ether, endTime);
        _bid(bob, tokenId, 1 ether);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertEq(auction.highestBid, 1 ether);
        assertEq(auction.highestBidder, bob);
        assertEq(auction.endTime, endTime, "no extension far from the end");
        assertEq(address(market).balance, 1 ether);
        assertEq(market.totalEscrowed(), 1 ether);
    }

    function test_bid_higher_refundsTheOutbidBidder() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 1 ether);
        uint256 bobBefore = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit BidPlaced(tokenId, 1, carol, 1.05 ether, uint64(_endOf(tokenId)));
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRefunded(tokenId, 1, bob, 1 ether);
        _bid(carol, tokenId, 1.05 ether);
        assertEq(bob.balance - bobBefore, 1 ether);
        assertEq(address(market).balance, 1.05 ether);
        assertEq(market.totalEscrowed(), 1.05 ether);
        assertEq(_auction(tokenId).highestBidder, carol);
    }

    function test_bid_byTheTopBidderAgain_raisesAndRefundsTheOldBid() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 1 ether);
        uint256 bobBefore = bob.balance;
        _bid(bob, tokenId, 2 ether);
        assertEq(bobBefore - bob.balance, 1 ether);
        assertEq(market.totalEscrowed(), 2 ether);
    }

    function test_bid_belowTheBasePrice_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBidTooLow.selector, 1 ether, 1 ether - 1));
        _bid(bob, tokenId, 1 ether - 1);
    }

    function test_bid_belowTheMinimumRaise_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBidTooLow.selector, 2.1 ether, 2.1 ether - 1));
        _bid(carol, tokenId, 2.1 ether - 1);
        _bid(carol, tokenId, 2.1 ether);
    }

    function test_bid_minimumRaiseOnATinyBid_isAtLeastOneWei() public {
        uint256 tokenId = _mint(alice, Marketplace.SaleType.Auction, uint64(block.timestamp + 1 hours), 1, 100);
        _bid(bob, tokenId, 1);
        assertEq(market.minimumBid(tokenId), 2);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBidTooLow.selector, 2, 1));
        _bid(carol, tokenId, 1);
        _bid(carol, tokenId, 2);
        _bid(bob, tokenId, 3);
        assertEq(market.minimumBid(tokenId), 4, "3 + ceil(0.15) = 4");
    }

    function test_bid_atOrAboveTheBuyNowPrice_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBidAtOrAboveBuyNow.selector, 10 ether, 10 ether));
        _bid(bob, tokenId, 10 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBidAtOrAboveBuyNow.selector, 10 ether, 11 ether));
        _bid(bob, tokenId, 11 ether);
    }

    function test_bid_byTheOwner_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOwnerCannotBid.selector, tokenId));
        _bid(alice, tokenId, 1 ether);
    }

    function test_bid_onAFixedPriceOrUnlistedToken_reverts() public {
        uint256 fixedId = _mintFixed(alice, 1 ether);
        uint256 unlistedId = _mintNotForSale(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAuction.selector, fixedId));
        _bid(bob, fixedId, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAuction.selector, unlistedId));
        _bid(bob, unlistedId, 1 ether);
    }

    function test_bid_unknownToken_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 4));
        _bid(bob, 4, 1 ether);
    }

    function test_bid_atOrAfterTheEnd_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.warp(endTime);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionExpired.selector, tokenId, endTime));
        _bid(bob, tokenId, 1 ether);
    }

    function test_bid_inTheLast10Minutes_extendsTheEnd() public {
        uint256 tokenId = _mintAuction(alice);
        uint256 endTime = _endOf(tokenId);
        vm.warp(endTime - 3 minutes);
        uint64 newEnd = uint64(block.timestamp + 10 minutes);
        vm.expectEmit(true, true, true, true, address(market));
        emit BidPlaced(tokenId, 1, bob, 1 ether, newEnd);
        _bid(bob, tokenId, 1 ether);
        assertEq(_endOf(tokenId), newEnd);
        assertEq(_endOf(tokenId), endTime + 7 minutes);

        vm.warp(newEnd - 1);
        _bid(carol, tokenId, 2 ether);
        assertEq(_endOf(tokenId), newEnd - 1 + 10 minutes, "a last-second bid extends again");
    }

    function test_bid_exactly10MinutesBeforeTheEnd_doesNotExtend() public {
        uint256 tokenId = _mintAuction(alice);
        uint256 endTime = _endOf(tokenId);
        vm.warp(endTime - 10 minutes);
        _bid(bob, tokenId, 1 ether);
        assertEq(_endOf(tokenId), endTime);
    }
}

contract AcceptOfferTest is MarketplaceTestBase {
    function test_acceptOffer_accept_sellsToTheTopBidderBeforeTheEnd() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        uint256 aliceBefore = alice.balance;
        (uint256 fee, uint256 r0, uint256 r1, uint256 proceeds) = _split(4 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionEnded(tokenId, 1, bob, 4 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, bob, tokenId);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 1, bob, alice, 4 ether, fee, r0 + r1, proceeds);
        vm.prank(alice);
        market.acceptOffer(tokenId, true);
        assertEq(market.ownerOf(tokenId), bob);
        assertEq(alice.balance - aliceBefore, proceeds);
        assertEq(admin.balance, fee);
        assertEq(market.totalEscrowed(), 0);
        assertEq(address(market).balance, 0);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertTrue(auction.ended);
        assertTrue(auction.sold);
        assertEq(auction.highestBid, 4 ether);
        assertEq(auction.highestBidder, bob);
    }

    function test_acceptOffer_accept_afterTheEnd_works() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        vm.warp(_endOf(tokenId) + 1 days);
        vm.prank(alice);
        market.acceptOffer(tokenId, true);
        assertEq(market.ownerOf(tokenId), bob);
    }

    function test_acceptOffer_reject_refundsAndKeepsTheAuctionOpen() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        uint256 bobBefore = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRejected(tokenId, 1, bob, 4 ether);
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
        assertEq(bob.balance - bobBefore, 4 ether);
        assertEq(market.totalEscrowed(), 0);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertFalse(auction.ended);
        assertEq(auction.highestBid, 0);
        assertEq(auction.highestBidder, address(0));
        assertTrue(_token(tokenId).forSale);
        assertEq(market.minimumBid(tokenId), 1 ether, "after a rejection bidding starts again at the base price");
        _bid(carol, tokenId, 1 ether);
    }

    function test_acceptOffer_reject_early_doesNotMoveTheEnd() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        uint256 endTime = _endOf(tokenId);
        vm.warp(endTime - 1 hours);
        vm.recordLogs();
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
        assertEq(_count(vm.getRecordedLogs(), AuctionExtended.selector), 0, "no AuctionExtended");
        assertEq(_endOf(tokenId), endTime);
    }

    function test_acceptOffer_reject_inTheLast10Minutes_extendsTheEnd() public {
        uint256 tokenId = _mintAuction(alice);
        uint256 endTime = _endOf(tokenId);
        vm.warp(endTime - 20 minutes);
        _bid(bob, tokenId, 4 ether);
        vm.warp(endTime - 1);
        uint64 newEnd = uint64(block.timestamp + 10 minutes);
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRejected(tokenId, 1, bob, 4 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionExtended(tokenId, 1, newEnd);
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
        assertEq(_endOf(tokenId), newEnd);
        assertEq(_endOf(tokenId), endTime - 1 + 10 minutes);

        // The bidders get the window to answer: a bid after the original end is still taken.
        vm.warp(endTime + 5 minutes);
        _bid(carol, tokenId, 1 ether);
        assertEq(_auction(tokenId).highestBidder, carol);
        assertEq(_endOf(tokenId), endTime + 15 minutes, "a late bid after it extends again");
    }

    function test_acceptOffer_reject_exactly10MinutesBeforeTheEnd_doesNotExtend() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        uint256 endTime = _endOf(tokenId);
        vm.warp(endTime - 10 minutes);
        vm.recordLogs();
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
        assertEq(_count(vm.getRecordedLogs(), AuctionExtended.selector), 0, "no AuctionExtended");
        assertEq(_endOf(tokenId), endTime);
    }

    function test_acceptOffer_reject_lateAgainAndAgain_keepsExtending() public {
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId) - 1 minutes);
        for (uint256 i = 0; i < 3; ++i) {
            _bid(bob, tokenId, 2 ether);
            vm.warp(_endOf(tokenId) - 30 seconds);
            vm.prank(alice);
            market.acceptOffer(tokenId, false);
            assertEq(_endOf(tokenId), block.timestamp + 10 minutes);
            vm.warp(block.timestamp + 9 minutes);
        }
        vm.warp(_endOf(tokenId));
        vm.prank(alice);
        market.closeAuction(tokenId);
        assertEq(market.totalEscrowed(), 0);
        assertEq(address(market).balance, 0);
    }

    function test_acceptOffer_reject_afterTheEnd_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.warp(endTime);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionExpired.selector, tokenId, endTime));
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
    }

    function test_acceptOffer_withoutABid_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoBid.selector, tokenId));
        vm.prank(alice);
        market.acceptOffer(tokenId, true);
    }

    function test_acceptOffer_notAnAuction_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAuction.selector, tokenId));
        vm.prank(alice);
        market.acceptOffer(tokenId, true);
    }

    function test_acceptOffer_byNonOwner_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(bob);
        market.acceptOffer(tokenId, true);
    }
}

contract SettleAuctionTest is MarketplaceTestBase {
    function test_settleAuction_afterTheEnd_byAnyone_sellsToTheTopBidder() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        _bid(carol, tokenId, 3 ether);
        vm.warp(_endOf(tokenId));
        uint256 aliceBefore = alice.balance;
        (uint256 fee, uint256 r0, uint256 r1, uint256 proceeds) = _split(3 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 1, carol, alice, 3 ether, fee, r0 + r1, proceeds);
        vm.prank(dave);
        market.settleAuction(tokenId);
        assertEq(market.ownerOf(tokenId), carol);
        assertEq(alice.balance - aliceBefore, proceeds);
        assertEq(royaltyA.balance, r0);
        assertEq(royaltyB.balance, r1);
        assertEq(admin.balance, fee);
        assertEq(address(market).balance, 0);
        assertTrue(_auction(tokenId).sold);
        assertEq(_token(tokenId).previousOwner, alice);
    }

    function test_settleAuction_beforeTheEnd_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.warp(endTime - 1);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionNotExpired.selector, tokenId, endTime));
        market.settleAuction(tokenId);
    }

    function test_settleAuction_withoutABid_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId));
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoBid.selector, tokenId));
        market.settleAuction(tokenId);
    }

    function test_settleAuction_twice_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        vm.warp(_endOf(tokenId));
        market.settleAuction(tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAuction.selector, tokenId));
        market.settleAuction(tokenId);
    }

    function test_settleAuction_unknownToken_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 6));
        market.settleAuction(6);
    }

    function test_settleAuction_toAContractWithoutOnERC721Received_stillDelivers() public {
        uint256 tokenId = _mintAuction(alice);
        NoReceiver bidder = new NoReceiver();
        vm.deal(address(bidder), 5 ether);
        vm.prank(address(bidder));
        market.bid{value: 2 ether}(tokenId);
        vm.warp(_endOf(tokenId));
        market.settleAuction(tokenId);
        assertEq(market.ownerOf(tokenId), address(bidder), "a winner cannot block its own settlement");
    }
}
