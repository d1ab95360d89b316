// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

contract ToggleForSaleTest is MarketplaceTestBase {
    function test_toggleForSale_notForSaleToFixed_listsIt() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.FixedPrice, 3 ether, 0, 0, 0);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 3 ether, 0, 0);
        assertEq(_token(tokenId).price, 3 ether);
        assertTrue(_token(tokenId).forSale);
    }

    function test_toggleForSale_fixedToNotForSale_stopsTheSale() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        Marketplace.TokenInfo memory info = _token(tokenId);
        assertFalse(info.forSale);
        assertEq(info.price, 0);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotForSale.selector, tokenId));
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
    }

    function test_toggleForSale_fixedToAuction_opensANewAuction() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint64 endTime = uint64(block.timestamp + 2 hours);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.Auction, 4 ether, 2 ether, endTime, 1);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 4 ether, endTime, 2 ether);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertEq(auction.auctionId, 1);
        assertEq(auction.lowestBidAmount, 2 ether);
        assertEq(auction.buyNowPrice, 4 ether);
        assertEq(auction.endTime, endTime);
        assertEq(_token(tokenId).price, 4 ether);
    }

    function test_toggleForSale_auctionWithoutBidToFixed_endsTheAuction() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionEnded(tokenId, 1, address(0), 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.FixedPrice, 7 ether, 0, 0, 0);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 7 ether, 0, 0);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertTrue(auction.ended, "the last auction is shown ended");
        assertFalse(auction.sold);
        assertEq(uint256(_token(tokenId).saleType), uint256(Marketplace.SaleType.FixedPrice));
    }

    function test_toggleForSale_auctionWithBidToNotForSale_refundsTheBidder() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        uint256 before = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRefunded(tokenId, 1, bob, 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionEnded(tokenId, 1, address(0), 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        assertEq(bob.balance - before, 2 ether);
        assertEq(market.totalEscrowed(), 0);
        assertEq(address(market).balance, 0);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertTrue(auction.ended);
        assertEq(auction.highestBid, 0);
        assertEq(auction.highestBidder, address(0));
    }

    function test_toggleForSale_auctionToNewAuction_getsANewIdAndRefunds() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        uint64 endTime = uint64(block.timestamp + 5 days);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 20 ether, endTime, 3 ether);
        assertTrue(market.auctionById(1).ended);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertEq(auction.auctionId, 2);
        assertFalse(auction.ended);
        assertEq(auction.highestBid, 0);
        assertEq(auction.lowestBidAmount, 3 ether);
        assertEq(market.totalEscrowed(), 0);
    }

    function test_toggleForSale_afterAnExpiredAuctionWithoutBid_isAllowed() public {
        uint256 tokenId = _mintAuction(alice);
        skip(2 days);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
        assertTrue(_auction(tokenId).ended);
    }

    function test_toggleForSale_whileAnExpiredAuctionAwaitsSettlement_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        skip(2 days);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionAwaitingSettlement.selector, tokenId));
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
    }

    function test_toggleForSale_byNonOwner_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(bob);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
    }

    function test_toggleForSale_unknownToken_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 5));
        vm.prank(alice);
        market.toggleForSale(5, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
    }

    function test_toggleForSale_invalidParameters_revert() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.startPrank(alice);
        vm.expectRevert(Marketplace.MarketplaceZeroPrice.selector);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 0, 0, 0);
        vm.expectRevert(Marketplace.MarketplaceUnexpectedSaleParameters.selector);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 1 ether, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBuyNowNotAboveBase.selector, 2, 2));
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 2, uint64(block.timestamp + 1), 2);
        uint64 tooLate = uint64(block.timestamp + 168 hours + 1);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidEndTime.selector, tooLate));
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 3, tooLate, 2);
        vm.stopPrank();
    }
}

contract ChangeTokenPriceTest is MarketplaceTestBase {
    function test_changeTokenPrice_fixed_updatesThePrice() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit PriceChanged(tokenId, 2 ether);
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 2 ether);
        assertEq(_token(tokenId).price, 2 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, 2 ether, 1 ether));
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
    }

    function test_changeTokenPrice_auctionWithoutBid_updatesTheBuyNowPrice() public {
        uint256 tokenId = _mintAuction(alice);
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 6 ether);
        assertEq(_auction(tokenId).buyNowPrice, 6 ether);
        assertEq(_token(tokenId).price, 6 ether);
    }

    function test_changeTokenPrice_auctionWithABid_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionHasBid.selector, tokenId));
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 6 ether);
    }

    function test_changeTokenPrice_expiredAuction_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.warp(endTime);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionExpired.selector, tokenId, endTime));
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 6 ether);
    }

    function test_changeTokenPrice_buyNowNotAboveBase_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBuyNowNotAboveBase.selector, 1 ether, 1 ether));
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 1 ether);
    }

    function test_changeTokenPrice_notForSale_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotForSale.selector, tokenId));
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 1 ether);
    }

    function test_changeTokenPrice_zero_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(Marketplace.MarketplaceZeroPrice.selector);
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 0);
    }

    function test_changeTokenPrice_byNonOwner_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(bob);
        market.changeTokenPrice(tokenId, 2 ether);
    }
}

contract CloseAuctionTest is MarketplaceTestBase {
    function test_closeAuction_expiredWithoutBid_endsItUnsold() public {
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId));
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionEnded(tokenId, 1, address(0), 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.prank(alice);
        market.closeAuction(tokenId);
        assertTrue(_auction(tokenId).ended);
        assertFalse(_auction(tokenId).sold);
        assertFalse(_token(tokenId).forSale);
        assertEq(market.ownerOf(tokenId), alice);
    }

    function test_closeAuction_beforeTheEnd_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        uint64 endTime = uint64(_endOf(tokenId));
        vm.warp(endTime - 1);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionNotExpired.selector, tokenId, endTime));
        vm.prank(alice);
        market.closeAuction(tokenId);
    }

    function test_closeAuction_withABid_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 1 ether);
        vm.warp(_endOf(tokenId));
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionHasBid.selector, tokenId));
        vm.prank(alice);
        market.closeAuction(tokenId);
    }

    function test_closeAuction_notAnAuction_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAuction.selector, tokenId));
        vm.prank(alice);
        market.closeAuction(tokenId);
    }

    function test_closeAuction_byNonOwner_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId));
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(bob);
        market.closeAuction(tokenId);
    }
}

contract BurnTest is MarketplaceTestBase {
    function test_burn_notForSale_removesTheTokenAndItsState() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, address(0), tokenId);
        vm.prank(alice);
        market.burn(tokenId);
        assertEq(market.balanceOf(alice), 0);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721NonexistentToken.selector, tokenId));
        market.ownerOf(tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, tokenId));
        market.tokenInfo(tokenId);
        (address[] memory receivers,) = market.royaltiesOf(tokenId);
        assertEq(receivers.length, 0);
        (address receiver,) = market.royaltyInfo(tokenId, 1 ether);
        assertEq(receiver, address(0));
        assertEq(market.lastTokenId(), 1, "burned ids are not reused");
        assertEq(_mintNotForSale(alice), 2);
    }

    function test_burn_afterAnEndedAuction_keepsTheAuctionHistory() public {
        uint256 tokenId = _mintAuction(alice);
        vm.startPrank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        market.burn(tokenId);
        vm.stopPrank();
        Marketplace.AuctionInfo memory auction = market.auctionById(1);
        assertEq(auction.tokenId, tokenId);
        assertTrue(auction.ended);
    }

    function test_burn_whileForSale_reverts() public {
        uint256 fixedId = _mintFixed(alice, 1 ether);
        uint256 auctionId = _mintAuction(alice);
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceForSale.selector, fixedId));
        market.burn(fixedId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceForSale.selector, auctionId));
        market.burn(auctionId);
        vm.stopPrank();
    }

    function test_burn_byNonOwner_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.prank(alice);
        market.setApprovalForAll(bob, true);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(bob);
        market.burn(tokenId);
    }

    function test_burn_unknownToken_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 3));
        vm.prank(alice);
        market.burn(3);
    }
}

contract TransferTest is MarketplaceTestBase {
    function test_transferFrom_ofAFixedListing_clearsIt() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, dave, tokenId);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.prank(alice);
        market.transferFrom(alice, dave, tokenId);
        Marketplace.TokenInfo memory info = _token(tokenId);
        assertEq(info.currentOwner, dave);
        assertEq(info.previousOwner, alice);
        assertEq(info.numberOfTransfers, 1);
        assertFalse(info.forSale);
        assertEq(info.price, 0);
        assertEq(info.mintedBy, alice);
    }

    function test_transferFrom_ofANotListedToken_emitsNoSaleUpdate() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.recordLogs();
        vm.prank(alice);
        market.transferFrom(alice, dave, tokenId);
        assertEq(vm.getRecordedLogs().length, 1, "only Transfer");
        assertEq(_token(tokenId).numberOfTransfers, 1);
    }

    function test_safeTransferFrom_byAnApprovedOperator_duringAnAuction_refundsAndEndsIt() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 3 ether);
        vm.prank(alice);
        market.approve(dave, tokenId);
        uint256 before = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRefunded(tokenId, 1, bob, 3 ether);
        vm.prank(dave);
        market.safeTransferFrom(alice, carol, tokenId);
        assertEq(bob.balance - before, 3 ether);
        assertEq(market.totalEscrowed(), 0);
        assertEq(address(market).balance, 0);
        assertTrue(_auction(tokenId).ended);
        assertFalse(_token(tokenId).forSale);
        assertEq(market.ownerOf(tokenId), carol);
        assertEq(market.getApproved(tokenId), address(0));
    }

    function test_transferFrom_whileAnExpiredAuctionAwaitsSettlement_reverts() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 3 ether);
        vm.warp(_endOf(tokenId));
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceAuctionAwaitingSettlement.selector, tokenId));
        vm.prank(alice);
        market.transferFrom(alice, dave, tokenId);
    }

    function test_transferFrom_ofAnExpiredAuctionWithoutBid_endsIt() public {
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId) + 1);
        vm.prank(alice);
        market.transferFrom(alice, dave, tokenId);
        assertTrue(_auction(tokenId).ended);
        assertFalse(_token(tokenId).forSale);
    }

    function test_transferFrom_byAStranger_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(
            abi.encodeWithSelector(IERC721Errors.ERC721InsufficientApproval.selector, dave, tokenId)
        );
        vm.prank(dave);
        market.transferFrom(alice, dave, tokenId);
        assertTrue(_token(tokenId).forSale, "the failed transfer left the listing");
    }
}
