// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

contract ConstructorAndAdminTest is MarketplaceTestBase {
    function test_constructor_setsNameSymbolAdminAndDefaultFee() public view {
        assertEq(market.name(), "NFT Marketplace");
        assertEq(market.symbol(), "NFTM");
        assertEq(market.admin(), admin);
        assertEq(market.serviceFeeBps(), 500);
        assertEq(market.lastTokenId(), 0);
        assertEq(market.lastAuctionId(), 0);
    }

    function test_constructor_emitsAdminAndFeeSoAnIndexerKnowsThemFromLogs() public {
        vm.expectEmit(true, true, true, true);
        emit AdminChanged(dave);
        vm.expectEmit(true, true, true, true);
        emit ServiceFeeChanged(500);
        vm.prank(dave);
        new Marketplace();
    }

    function test_setServiceFeeBps_byAdmin_updatesAndEmits() public {
        vm.expectEmit(true, true, true, true, address(market));
        emit ServiceFeeChanged(250);
        vm.prank(admin);
        market.setServiceFeeBps(250);
        assertEq(market.serviceFeeBps(), 250);
    }

    function test_setServiceFeeBps_acceptsZeroAndTheMaximum() public {
        vm.startPrank(admin);
        market.setServiceFeeBps(0);
        assertEq(market.serviceFeeBps(), 0);
        market.setServiceFeeBps(market.MAX_SERVICE_FEE_BPS());
        assertEq(market.serviceFeeBps(), 1_000);
        vm.stopPrank();
    }

    function test_setServiceFeeBps_aboveTheMaximum_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceFeeTooHigh.selector, uint96(1_001)));
        vm.prank(admin);
        market.setServiceFeeBps(1_001);
    }

    function test_setServiceFeeBps_byNonAdmin_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, alice));
        vm.prank(alice);
        market.setServiceFeeBps(100);
    }

    function test_proposeAdmin_byAdmin_recordsTheProposalAndKeepsTheRole() public {
        vm.expectEmit(true, true, true, true, address(market));
        emit AdminProposed(dave);
        vm.prank(admin);
        market.proposeAdmin(dave);
        assertEq(market.pendingAdmin(), dave);
        assertEq(market.admin(), admin, "the role moves only on acceptance");

        vm.prank(admin);
        market.setServiceFeeBps(100);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, dave));
        vm.prank(dave);
        market.setServiceFeeBps(200);
    }

    function test_acceptAdmin_byTheProposedAdmin_handsOverTheRole() public {
        vm.prank(admin);
        market.proposeAdmin(dave);
        vm.expectEmit(true, true, true, true, address(market));
        emit AdminChanged(dave);
        vm.prank(dave);
        market.acceptAdmin();
        assertEq(market.admin(), dave);
        assertEq(market.pendingAdmin(), address(0), "no admin pending after the handover");

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, admin));
        vm.prank(admin);
        market.setServiceFeeBps(100);

        vm.prank(dave);
        market.setServiceFeeBps(100);
        assertEq(market.serviceFeeBps(), 100);
    }

    function test_acceptAdmin_bySomeoneElse_reverts() public {
        vm.prank(admin);
        market.proposeAdmin(dave);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, bob));
        vm.prank(bob);
        market.acceptAdmin();
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, admin));
        vm.prank(admin);
        market.acceptAdmin();
        assertEq(market.admin(), admin);
    }

    function test_acceptAdmin_withoutAProposal_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, dave));
        vm.prank(dave);
        market.acceptAdmin();
    }

    function test_acceptAdmin_twice_reverts() public {
        _handOverAdmin(dave);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, dave));
        vm.prank(dave);
        market.acceptAdmin();
    }

    function test_proposeAdmin_byNonAdmin_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, bob));
        vm.prank(bob);
        market.proposeAdmin(bob);
    }

    function test_proposeAdmin_theMarketItself_reverts() public {
        vm.expectRevert(Marketplace.MarketplaceSelfAdmin.selector);
        vm.prank(admin);
        market.proposeAdmin(address(market));
        assertEq(market.pendingAdmin(), address(0));
    }

    function test_proposeAdmin_zero_withdrawsTheProposal() public {
        vm.prank(admin);
        market.proposeAdmin(dave);
        vm.expectEmit(true, true, true, true, address(market));
        emit AdminProposed(address(0));
        vm.prank(admin);
        market.proposeAdmin(address(0));
        assertEq(market.pendingAdmin(), address(0));
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, dave));
        vm.prank(dave);
        market.acceptAdmin();
    }

    function test_proposeAdmin_again_replacesTheProposal() public {
        vm.startPrank(admin);
        market.proposeAdmin(dave);
        market.proposeAdmin(carol);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, dave));
        vm.prank(dave);
        market.acceptAdmin();
        vm.prank(carol);
        market.acceptAdmin();
        assertEq(market.admin(), carol);
    }

    function test_newAdmin_receivesTheFeeOfLaterSales() public {
        _handOverAdmin(dave);
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 before = dave.balance;
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        assertEq(dave.balance - before, 0.05 ether);
    }

    function test_proposedAdmin_getsNoFeeBeforeAccepting() public {
        vm.prank(admin);
        market.proposeAdmin(dave);
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 daveBefore = dave.balance;
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        assertEq(admin.balance, 0.05 ether);
        assertEq(dave.balance, daveBefore);
    }

    /// Whoever is proposed, the role moves only when exactly that account accepts.
    function testFuzz_adminHandover_onlyTheProposedAccountTakesTheRole(address proposed, address caller) public {
        vm.assume(proposed != address(0) && proposed != address(market));
        vm.prank(admin);
        market.proposeAdmin(proposed);
        if (caller != proposed) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotPendingAdmin.selector, caller));
        }
        vm.prank(caller);
        market.acceptAdmin();
        assertEq(market.admin(), caller == proposed ? proposed : admin);
    }
}

contract MintTest is MarketplaceTestBase {
    function test_mint_notForSale_storesTheTokenAndEmits() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 1_000, royaltyB, 250);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(address(0), alice, 1);
        vm.expectEmit(true, true, true, true, address(market));
        emit Minted(1, alice, URI, receivers, bps);
        vm.recordLogs();
        vm.prank(alice);
        uint256 tokenId = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        assertEq(vm.getRecordedLogs().length, 2, "no SaleUpdated for a token minted not for sale");

        assertEq(tokenId, 1, "ids start at 1");
        assertEq(market.ownerOf(1), alice);
        assertEq(market.tokenURI(1), URI);
        assertEq(market.lastTokenId(), 1);
        Marketplace.TokenInfo memory info = _token(1);
        assertEq(info.tokenId, 1);
        assertEq(info.tokenURI, URI);
        assertEq(info.mintedBy, alice);
        assertEq(info.currentOwner, alice);
        assertEq(info.previousOwner, address(0));
        assertEq(info.price, 0);
        assertEq(info.numberOfTransfers, 0);
        assertFalse(info.forSale);
        assertEq(uint256(info.saleType), uint256(Marketplace.SaleType.NotForSale));
        assertEq(info.auctionId, 0);
        assertEq(info.numberOfRoyalties, 2);
        (address[] memory gotReceivers, uint96[] memory gotBps) = market.royaltiesOf(1);
        assertEq(gotReceivers.length, 2);
        assertEq(gotReceivers[0], royaltyA);
        assertEq(gotReceivers[1], royaltyB);
        assertEq(uint256(gotBps[0]), 1_000);
        assertEq(uint256(gotBps[1]), 250);
    }

    function test_mint_idsIncreaseByOne() public {
        assertEq(_mintNotForSale(alice), 1);
        assertEq(_mintNotForSale(bob), 2);
        assertEq(_mintFixed(alice, 1 ether), 3);
        assertEq(market.balanceOf(alice), 2);
    }

    function test_mint_withoutRoyalties_works() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.prank(alice);
        uint256 tokenId = market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
        assertEq(_token(tokenId).numberOfRoyalties, 0);
        (address receiver, uint256 amount) = market.royaltyInfo(tokenId, 1 ether);
        assertEq(receiver, address(0));
        assertEq(amount, 0);
    }

    function test_mint_fixedPrice_listsTheToken() public {
        (address[] memory receivers, uint96[] memory bps) = _one(royaltyA, 500);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(1, Marketplace.SaleType.FixedPrice, 2 ether, 0, 0, 0);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 2 ether);
        Marketplace.TokenInfo memory info = _token(1);
        assertTrue(info.forSale);
        assertEq(uint256(info.saleType), uint256(Marketplace.SaleType.FixedPrice));
        assertEq(info.price, 2 ether);
        assertEq(info.auctionId, 0);
    }

    function test_mint_auction_opensAnAuctionWithANewId() public {
        uint64 endTime = uint64(block.timestamp + 3 days);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(1, Marketplace.SaleType.Auction, 5 ether, 1 ether, endTime, 1);
        _mint(alice, Marketplace.SaleType.Auction, endTime, 1 ether, 5 ether);

        Marketplace.TokenInfo memory info = _token(1);
        assertTrue(info.forSale);
        assertEq(uint256(info.saleType), uint256(Marketplace.SaleType.Auction));
        assertEq(info.price, 5 ether, "price is the buy-now price");
        assertEq(info.auctionId, 1);
        Marketplace.AuctionInfo memory auction = _auction(1);
        assertEq(auction.auctionId, 1);
        assertEq(auction.tokenId, 1);
        assertEq(auction.endTime, endTime);
        assertEq(auction.lowestBidAmount, 1 ether);
        assertEq(auction.buyNowPrice, 5 ether);
        assertFalse(auction.ended);
        assertEq(auction.highestBid, 0);
        assertEq(auction.highestBidder, address(0));
        assertFalse(auction.sold);
        assertEq(market.lastAuctionId(), 1);

        _mint(bob, Marketplace.SaleType.Auction, endTime, 1 ether, 5 ether);
        assertEq(_token(2).auctionId, 2, "every auction gets the next global id");
    }

    function test_mint_auctionEndingExactly168HoursAhead_isAccepted() public {
        _mint(alice, Marketplace.SaleType.Auction, uint64(block.timestamp + 168 hours), 1, 2);
        assertEq(_endOf(1), block.timestamp + 168 hours);
    }

    function test_mint_emptyUri_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(Marketplace.MarketplaceEmptyTokenURI.selector);
        vm.prank(alice);
        market.mint("", Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_royaltyLengthMismatch_reverts() public {
        address[] memory receivers = new address[](2);
        receivers[0] = royaltyA;
        receivers[1] = royaltyB;
        uint96[] memory bps = new uint96[](1);
        bps[0] = 100;
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceRoyaltyLengthMismatch.selector, 2, 1));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_threeRoyaltyReceivers_reverts() public {
        address[] memory receivers = new address[](3);
        uint96[] memory bps = new uint96[](3);
        for (uint256 i = 0; i < 3; ++i) {
            receivers[i] = address(uint160(0x1000 + i));
            bps[i] = 100;
        }
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceTooManyRoyalties.selector, 3));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_zeroRoyaltyReceiver_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _one(address(0), 100);
        vm.expectRevert(Marketplace.MarketplaceZeroRoyaltyReceiver.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_marketAsRoyaltyReceiver_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _one(address(market), 100);
        vm.expectRevert(Marketplace.MarketplaceSelfRoyaltyReceiver.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);

        (receivers, bps) = _two(royaltyA, 100, address(market), 100);
        vm.expectRevert(Marketplace.MarketplaceSelfRoyaltyReceiver.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
        assertEq(market.lastTokenId(), 0);
    }

    function test_mint_zeroRoyaltyShare_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 100, royaltyB, 0);
        vm.expectRevert(Marketplace.MarketplaceZeroRoyaltyShare.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_sameRoyaltyReceiverTwice_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 100, royaltyA, 200);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceDuplicateRoyaltyReceiver.selector, royaltyA));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_royaltiesAboveTheMaximum_revert() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 5_000, royaltyB, 4_001);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceRoyaltyTooHigh.selector, 9_001));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_oneRoyaltyOf100Percent_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _one(royaltyA, 10_000);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceRoyaltyTooHigh.selector, 10_000));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
    }

    function test_mint_royaltiesAtTheMaximum_areAccepted() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 5_000, royaltyB, 4_000);
        vm.prank(alice);
        uint256 tokenId = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        (, uint256 amount) = market.royaltyInfo(tokenId, 1 ether);
        assertEq(amount, 0.9 ether);
    }

    function test_mint_notForSaleWithAPrice_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(Marketplace.MarketplaceUnexpectedSaleParameters.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 1);
    }

    function test_mint_notForSaleWithAuctionValues_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(Marketplace.MarketplaceUnexpectedSaleParameters.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, uint64(block.timestamp + 1), 0, 0);
        vm.expectRevert(Marketplace.MarketplaceUnexpectedSaleParameters.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 1, 0);
    }

    function test_mint_fixedPriceWithAuctionValues_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(Marketplace.MarketplaceUnexpectedSaleParameters.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, uint64(block.timestamp + 1), 0, 1 ether);
        vm.expectRevert(Marketplace.MarketplaceUnexpectedSaleParameters.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 1, 1 ether);
    }

    function test_mint_fixedPriceOfZero_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(Marketplace.MarketplaceZeroPrice.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 0);
    }

    function test_mint_auctionWithZeroBasePrice_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(Marketplace.MarketplaceZeroPrice.selector);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, uint64(block.timestamp + 1 days), 0, 1 ether);
    }

    function test_mint_auctionWithBuyNowNotAboveBase_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        uint64 endTime = uint64(block.timestamp + 1 days);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBuyNowNotAboveBase.selector, 1 ether, 1 ether));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, endTime, 1 ether, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceBuyNowNotAboveBase.selector, 1 ether, 0));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, endTime, 1 ether, 0);
    }

    function test_mint_auctionEndingNowOrInThePast_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        uint64 now_ = uint64(block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidEndTime.selector, now_));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, now_, 1, 2);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidEndTime.selector, now_ - 60));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, now_ - 60, 1, 2);
    }

    function test_mint_auctionEndingAfter168Hours_reverts() public {
        (address[] memory receivers, uint96[] memory bps) = _none();
        uint64 endTime = uint64(block.timestamp + 168 hours + 1);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidEndTime.selector, endTime));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, endTime, 1, 2);
    }
}

contract ViewsTest is MarketplaceTestBase {
    function test_supportsInterface_erc165_erc721_metadata_erc2981() public view {
        assertTrue(market.supportsInterface(0x01ffc9a7), "ERC-165");
        assertTrue(market.supportsInterface(0x80ac58cd), "ERC-721");
        assertTrue(market.supportsInterface(0x5b5e139f), "ERC-721 Metadata");
        assertTrue(market.supportsInterface(0x2a55205a), "ERC-2981");
        assertFalse(market.supportsInterface(0xffffffff), "0xffffffff must be false");
        assertFalse(market.supportsInterface(0x780e9d63), "not ERC-721 Enumerable");
    }

    function test_royaltyInfo_returnsTheSplitOfTwoReceiversWithTheTotal() public {
        uint256 tokenId = _mintNotForSale(alice);
        (address receiver, uint256 amount) = market.royaltyInfo(tokenId, 1 ether);
        assertEq(receiver, market.royaltySplitOf(tokenId));
        assertTrue(receiver != address(0) && receiver != royaltyA && receiver != royaltyB);
        assertEq(amount, 0.125 ether);
        (, uint256 rounded) = market.royaltyInfo(tokenId, 999);
        assertEq(rounded, 99 + 24, "each row rounded down");
    }

    function test_royaltyInfo_unknownToken_isZero() public view {
        (address receiver, uint256 amount) = market.royaltyInfo(42, 1 ether);
        assertEq(receiver, address(0));
        assertEq(amount, 0);
    }

    function test_royaltiesOf_unknownToken_isEmpty() public view {
        (address[] memory receivers, uint96[] memory bps) = market.royaltiesOf(42);
        assertEq(receivers.length, 0);
        assertEq(bps.length, 0);
    }

    function test_tokenInfo_tokenURI_auctionInfo_ofUnknownToken_revert() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 7));
        market.tokenInfo(7);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 7));
        market.tokenURI(7);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 7));
        market.auctionInfo(7);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721NonexistentToken.selector, 7));
        market.ownerOf(7);
    }

    function test_auctionInfo_ofANeverAuctionedToken_isAllZero() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        Marketplace.AuctionInfo memory auction = _auction(tokenId);
        assertEq(auction.auctionId, 0);
        assertEq(auction.tokenId, 0);
        assertEq(auction.endTime, 0);
    }

    function test_auctionById_unknownId_isAllZero() public view {
        Marketplace.AuctionInfo memory auction = market.auctionById(99);
        assertEq(auction.auctionId, 0);
        assertEq(auction.tokenId, 0);
    }

    function test_minimumBid_isTheBaseThenTheTopBidPlus5Percent() public {
        uint256 tokenId = _mintAuction(alice);
        assertEq(market.minimumBid(tokenId), 1 ether);
        _bid(bob, tokenId, 2 ether);
        assertEq(market.minimumBid(tokenId), 2.1 ether);
    }

    function test_minimumBid_notInAuction_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAuction.selector, tokenId));
        market.minimumBid(tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 9));
        market.minimumBid(9);
    }

    function test_directEtherTransfer_isRefused() public {
        vm.prank(bob);
        (bool ok,) = address(market).call{value: 1 ether}("");
        assertFalse(ok, "the market has no receive: no ether can be stuck in it");
    }
}
