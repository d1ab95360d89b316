// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Vm} from "./utils/Vm.sol";
import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {RevertingReceiver} from "./helpers/Receivers.sol";

/// @notice Stolen-item holds: the moderator role, the limits of a hold, every sale path it blocks,
/// its end, and that nothing (bids, offers, credits, transfers) is locked by it.
contract HoldTest is MarketplaceTestBase {
    address internal moderator;
    bytes32 internal constant REPORT = keccak256("police report 2024-118/7, precinct 4");

    event ModeratorSet(address indexed account, bool enabled);
    event SaleHeld(uint256 indexed tokenId, address indexed moderator, uint64 until, bytes32 evidence);
    event SaleReleased(uint256 indexed tokenId, address indexed moderator);

    function setUp() public override {
        super.setUp();
        moderator = makeAddr("moderator");
        vm.prank(admin);
        market.setModerator(moderator, true);
    }

    /// @dev The end of each token's last hold, as the test set it (read without a call, so that
    /// `_held` can sit between a vm.prank and its call).
    mapping(uint256 tokenId => uint64) internal _until;

    function _hold(uint256 tokenId, uint256 until, bytes32 evidence) internal {
        vm.prank(moderator);
        market.holdSale(tokenId, uint64(until), evidence);
        _until[tokenId] = uint64(until);
        assertEq(market.saleHeldUntil(tokenId), until, "saleHeldUntil");
    }

    /// @dev The revert data of a held token's sale paths.
    function _held(uint256 tokenId) internal view returns (bytes memory) {
        return abi.encodeWithSelector(Marketplace.MarketplaceSaleHeld.selector, tokenId, _until[tokenId]);
    }

    // ---- roles -------------------------------------------------------------------------------

    function test_setModerator_onlyAdmin_grantsAndRevokes_withEvents() public {
        vm.prank(dave);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, dave));
        market.setModerator(dave, true);
        assertFalse(market.isModerator(dave));

        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, moderator));
        market.setModerator(dave, true);

        vm.expectEmit(true, false, false, true, address(market));
        emit ModeratorSet(dave, true);
        vm.prank(admin);
        market.setModerator(dave, true);
        assertTrue(market.isModerator(dave));

        vm.expectEmit(true, false, false, true, address(market));
        emit ModeratorSet(dave, false);
        vm.prank(admin);
        market.setModerator(dave, false);
        assertFalse(market.isModerator(dave));

        vm.prank(admin);
        vm.expectRevert(Marketplace.MarketplaceZeroAddress.selector);
        market.setModerator(address(0), true);
    }

    function test_newAdmin_managesModerators_andTheOldOneCannot() public {
        _handOverAdmin(carol);
        vm.prank(admin);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotAdmin.selector, admin));
        market.setModerator(dave, true);
        vm.prank(carol);
        market.setModerator(moderator, false);
        assertFalse(market.isModerator(moderator));
    }

    function test_onlyModerators_holdAndRelease() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        for (uint256 i = 0; i < 3; ++i) {
            address caller = i == 0 ? dave : (i == 1 ? admin : bob);
            vm.prank(caller);
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotModerator.selector, caller));
            market.holdSale(tokenId, uint64(block.timestamp + 1 days), bytes32(0));
        }
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        vm.prank(dave);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotModerator.selector, dave));
        market.releaseSale(tokenId);
    }

    function test_revokedModerator_canNeitherHoldNorRelease() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        vm.prank(admin);
        market.setModerator(moderator, false);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotModerator.selector, moderator));
        market.releaseSale(tokenId);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotModerator.selector, moderator));
        market.holdSale(tokenId, uint64(block.timestamp + 2 days), bytes32(0));
        assertEq(market.saleHeldUntil(tokenId), block.timestamp + 1 days, "the hold stays as it was");
    }

    function test_moderator_cannotHoldOrReleaseItsOwnToken() public {
        uint256 own = _mintFixed(moderator, 1 ether);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceModeratorIsOwner.selector, own));
        market.holdSale(own, uint64(block.timestamp + 1 days), bytes32(0));

        // Held while someone else owned it, then given to the moderator: it cannot release it.
        uint256 tokenId = _mintNotForSale(alice);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        vm.prank(alice);
        market.transferFrom(alice, moderator, tokenId);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceModeratorIsOwner.selector, tokenId));
        market.releaseSale(tokenId);
    }

    function test_hold_unknownOrBurnedToken_reverts() public {
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 99));
        market.holdSale(99, uint64(block.timestamp + 1 days), bytes32(0));

        uint256 tokenId = _mintNotForSale(alice);
        vm.prank(alice);
        market.burn(tokenId);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, tokenId));
        market.holdSale(tokenId, uint64(block.timestamp + 1 days), bytes32(0));
    }

    // ---- limits and renewal --------------------------------------------------------------------

    function test_hold_withoutEvidence_atMostSevenDays() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 latest = block.timestamp + 7 days;
        vm.prank(moderator);
        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceInvalidHoldEnd.selector, uint64(latest + 1), latest)
        );
        market.holdSale(tokenId, uint64(latest + 1), bytes32(0));
        assertEq(market.saleHeldUntil(tokenId), 0, "a refused hold changes nothing");
        assertTrue(_token(tokenId).forSale, "and leaves the listing");

        vm.expectEmit(true, true, false, true, address(market));
        emit SaleHeld(tokenId, moderator, uint64(latest), bytes32(0));
        _hold(tokenId, latest, bytes32(0));
        assertEq(market.saleHeldUntil(tokenId), latest);
        assertEq(market.MAX_HOLD(), 7 days);
    }

    function test_hold_endMustBeInTheFuture() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.prank(moderator);
        vm.expectRevert(
            abi.encodeWithSelector(
                Marketplace.MarketplaceInvalidHoldEnd.selector, uint64(block.timestamp), block.timestamp + 7 days
            )
        );
        market.holdSale(tokenId, uint64(block.timestamp), bytes32(0));
        // A short hold (a test, a mistake caught at once) is fine.
        _hold(tokenId, block.timestamp + 30, bytes32(0));
        assertEq(market.saleHeldUntil(tokenId), block.timestamp + 30);
    }

    function test_hold_withEvidence_atMostNinetyDaysFromNow_renewable() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 latest = block.timestamp + 90 days;
        vm.prank(moderator);
        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceInvalidHoldEnd.selector, uint64(latest + 1), latest)
        );
        market.holdSale(tokenId, uint64(latest + 1), REPORT);

        vm.expectEmit(true, true, false, true, address(market));
        emit SaleHeld(tokenId, moderator, uint64(latest), REPORT);
        _hold(tokenId, latest, REPORT);
        assertEq(market.MAX_HOLD_WITH_EVIDENCE(), 90 days);

        // Renewed with evidence near its end: 90 days from the renewal.
        vm.warp(block.timestamp + 89 days);
        _hold(tokenId, block.timestamp + 90 days, REPORT);
        assertEq(market.saleHeldUntil(tokenId), block.timestamp + 90 days);
    }

    function test_renewal_withoutEvidence_cannotGoPastSevenDaysFromTheStart() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 start = block.timestamp;
        _hold(tokenId, start + 2 days, bytes32(0));
        vm.warp(start + 1 days);
        // Extending to the 7-day mark is a renewal within the limit...
        _hold(tokenId, start + 7 days, bytes32(0));
        vm.warp(start + 6 days);
        // ...but not beyond it, however late the renewal comes.
        vm.prank(moderator);
        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceInvalidHoldEnd.selector, uint64(start + 8 days), start + 7 days)
        );
        market.holdSale(tokenId, uint64(start + 8 days), bytes32(0));
        // With evidence it can.
        _hold(tokenId, start + 60 days, REPORT);
        // Shortening is a renewal too.
        _hold(tokenId, start + 7 days, REPORT);
        assertEq(market.saleHeldUntil(tokenId), start + 7 days);

        // Once a hold has ended, a new one starts a new 7 days.
        vm.warp(start + 7 days);
        _hold(tokenId, block.timestamp + 7 days, bytes32(0));
        assertEq(market.saleHeldUntil(tokenId), start + 14 days);
    }

    function test_release_endsTheHold_andNeedsAHold() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotHeld.selector, tokenId));
        market.releaseSale(tokenId);

        _hold(tokenId, block.timestamp + 3 days, bytes32(0));
        vm.expectEmit(true, true, false, true, address(market));
        emit SaleReleased(tokenId, moderator);
        vm.prank(moderator);
        market.releaseSale(tokenId);
        assertEq(market.saleHeldUntil(tokenId), 0);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        assertEq(market.ownerOf(tokenId), bob);

        // An expired hold is no hold: nothing to release.
        _hold(tokenId, block.timestamp + 1 hours, bytes32(0));
        vm.warp(block.timestamp + 1 hours);
        vm.prank(moderator);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotHeld.selector, tokenId));
        market.releaseSale(tokenId);
    }

    // ---- what a hold does to a listing ---------------------------------------------------------

    function test_hold_endsAFixedPriceListing() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.recordLogs();
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(logs.length, 2, "SaleHeld, SaleUpdated(NotForSale)");
        assertEq(logs[0].topics[0], SaleHeld.selector);
        assertEq(logs[1].topics[0], SaleUpdated.selector);
        assertFalse(_token(tokenId).forSale);
        assertEq(_token(tokenId).price, 0);
        assertEq(market.serviceFeeBpsOf(tokenId), 0);
    }

    function test_hold_endsARunningAuction_refundingTheTopBid() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        uint256 bobBefore = bob.balance;
        uint256 auctionId = _auction(tokenId).auctionId;
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRefunded(tokenId, auctionId, bob, 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit AuctionEnded(tokenId, auctionId, address(0), 0);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        assertEq(bob.balance, bobBefore + 2 ether, "the top bid is back");
        assertTrue(_auction(tokenId).ended);
        assertFalse(_auction(tokenId).sold);
        assertEq(market.totalEscrowed(), 0);
        _assertBalanceIsOwed();
    }

    function test_hold_onAnAuctionAwaitingSettlement_refundsTheWinner() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 2 ether);
        vm.warp(_endOf(tokenId));
        uint256 bobBefore = bob.balance;
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        assertEq(bob.balance, bobBefore + 2 ether, "a held sale does not complete");
        assertEq(market.ownerOf(tokenId), alice);
        vm.prank(carol);
        vm.expectRevert(_held(tokenId));
        market.settleAuction(tokenId);
        _assertBalanceIsOwed();
    }

    function test_hold_refundToABidderThatRefusesEther_isACredit() public {
        RevertingReceiver refuser = new RevertingReceiver(market);
        vm.deal(address(refuser), 10 ether);
        uint256 tokenId = _mintAuction(alice);
        vm.prank(address(refuser));
        market.bid{value: 2 ether}(tokenId);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        assertEq(market.creditsOf(address(refuser)), 2 ether);
        vm.prank(address(refuser));
        market.withdrawCreditsTo(payable(dave));
        _assertBalanceIsOwed();
    }

    // ---- every blocked path --------------------------------------------------------------------

    function test_held_listingAndAuction_refused_stoppingAllowed() public {
        uint256 tokenId = _mintNotForSale(alice);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));
        vm.startPrank(alice);
        vm.expectRevert(_held(tokenId));
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
        vm.expectRevert(_held(tokenId));
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 10 ether, uint64(block.timestamp + 1 days), 1 ether);
        // Stopping a sale is never refused.
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        vm.expectRevert(_held(tokenId));
        market.changeTokenPrice(tokenId, 2 ether);
        vm.stopPrank();
    }

    function test_held_buy_bid_acceptBid_settle_refused() public {
        uint256 fixedId = _mintFixed(alice, 1 ether);
        uint256 auctionId = _mintAuction(alice);
        _hold(fixedId, block.timestamp + 1 days, bytes32(0));
        _hold(auctionId, block.timestamp + 1 days, bytes32(0));

        vm.startPrank(bob);
        vm.expectRevert(_held(fixedId));
        market.buyToken{value: 1 ether}(fixedId);
        vm.expectRevert(_held(auctionId));
        market.buyToken{value: 10 ether}(auctionId);
        vm.expectRevert(_held(auctionId));
        market.bid{value: 1 ether}(auctionId);
        vm.expectRevert(_held(auctionId));
        market.settleAuction(auctionId);
        vm.stopPrank();
        vm.startPrank(alice);
        vm.expectRevert(_held(auctionId));
        market.acceptOffer(auctionId, true);
        vm.expectRevert(_held(auctionId));
        market.closeAuction(auctionId);
        vm.stopPrank();
        assertEq(market.ownerOf(fixedId), alice);
        assertEq(market.ownerOf(auctionId), alice);
    }

    function test_held_makeOffer_and_acceptOfferFrom_refused() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, block.timestamp + 3 days);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));

        vm.prank(carol);
        vm.expectRevert(_held(tokenId));
        market.makeOffer{value: 1 ether}(tokenId, uint64(block.timestamp + 3 days));
        // Nor can an offerer raise its open offer.
        vm.prank(bob);
        vm.expectRevert(_held(tokenId));
        market.makeOffer{value: 2 ether}(tokenId, uint64(block.timestamp + 3 days));

        (,,, uint256 proceeds) = _split(1 ether);
        vm.prank(alice);
        vm.expectRevert(_held(tokenId));
        market.acceptOfferFrom(tokenId, bob, 1 ether, proceeds);
        (uint256 amount,,) = market.offerOf(tokenId, bob);
        assertEq(amount, 1 ether, "the refused accept changed nothing");

        // Once the hold ends the same offer sells.
        vm.warp(block.timestamp + 1 days);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, proceeds);
        assertEq(market.ownerOf(tokenId), bob);
    }

    function test_held_cartSkipsTheItem_andBuysTheRest() public {
        uint256 held = _mintFixed(alice, 1 ether);
        uint256 free = _mintFixed(alice, 2 ether);
        _hold(held, block.timestamp + 1 days, bytes32(0));
        uint256[] memory ids = new uint256[](2);
        uint256[] memory prices = new uint256[](2);
        ids[0] = held;
        ids[1] = free;
        prices[0] = 1 ether;
        prices[1] = 2 ether;
        uint256 bobBefore = bob.balance;
        vm.expectEmit(true, true, false, true, address(market));
        emit CartItemSkipped(held, bob, 1 ether, 0);
        vm.prank(bob);
        market.buyTokens{value: 3 ether}(ids, prices);
        assertEq(market.ownerOf(held), alice);
        assertEq(market.ownerOf(free), bob);
        assertEq(bob.balance, bobBefore - 2 ether, "the held item's price came back");
        _assertBalanceIsOwed();
    }

    // ---- nothing locked ------------------------------------------------------------------------

    function test_held_offersStayRefundable_cancelAndReject() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, block.timestamp + 3 days);
        _offer(carol, tokenId, 2 ether, block.timestamp + 3 days);
        _hold(tokenId, block.timestamp + 90 days, REPORT);

        uint256 bobBefore = bob.balance;
        vm.prank(bob);
        market.cancelOffer(tokenId);
        assertEq(bob.balance, bobBefore + 1 ether);

        uint256 carolBefore = carol.balance;
        vm.prank(alice);
        market.rejectOfferFrom(tokenId, carol);
        assertEq(carol.balance, carolBefore + 2 ether);
        assertEq(market.totalOffers(), 0);
        _assertBalanceIsOwed();
    }

    function test_held_transfersAndBurnStayFree_andTheHoldFollowsTheToken() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _offer(carol, tokenId, 1 ether, block.timestamp + 3 days);
        _hold(tokenId, block.timestamp + 1 days, bytes32(0));

        vm.prank(alice);
        market.transferFrom(alice, bob, tokenId);
        assertEq(market.ownerOf(tokenId), bob);
        vm.prank(bob);
        market.safeTransferFrom(bob, carol, tokenId);
        assertEq(market.ownerOf(tokenId), carol, "safe transfer too");
        assertEq(market.totalOffers(), 0, "the new owner's offer came back, as at any transfer");

        // The new owner cannot sell it either.
        vm.prank(carol);
        vm.expectRevert(_held(tokenId));
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);

        vm.prank(carol);
        market.burn(tokenId);
        assertEq(market.balanceOf(carol), 0, "burned");
        _assertBalanceIsOwed();
    }

    function test_held_creditsStayWithdrawable() public {
        RevertingReceiver seller = new RevertingReceiver(market);
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.prank(address(seller));
        uint256 sold = market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(sold);
        uint256 credit = market.creditsOf(address(seller));
        assertGt(credit, 0, "the seller refused the proceeds");

        // The seller's other token is held: its credits are not.
        vm.prank(address(seller));
        uint256 other = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        _hold(other, block.timestamp + 1 days, bytes32(0));
        vm.prank(address(seller));
        market.withdrawCreditsTo(payable(dave));
        assertEq(market.creditsOf(address(seller)), 0);
        _assertBalanceIsOwed();
    }

    // ---- expiry --------------------------------------------------------------------------------

    function test_expiry_everythingWorksAgain() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 until = block.timestamp + 30;
        _hold(tokenId, until, bytes32(0));

        vm.warp(until - 1);
        vm.prank(alice);
        vm.expectRevert(_held(tokenId));
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);

        vm.warp(until); // the hold ends at `until` itself
        _offer(carol, tokenId, 1 ether, block.timestamp + 1 days);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 2 ether);
        vm.prank(bob);
        market.buyToken{value: 2 ether}(tokenId);
        assertEq(market.ownerOf(tokenId), bob);

        vm.prank(bob);
        market.toggleForSale(
            tokenId, Marketplace.SaleType.Auction, 10 ether, uint64(block.timestamp + 1 days), 1 ether
        );
        _bid(dave, tokenId, 1 ether);
        vm.warp(block.timestamp + 1 days);
        market.settleAuction(tokenId);
        assertEq(market.ownerOf(tokenId), dave);
        _assertBalanceIsOwed();
    }

    /// @dev Fuzzed: the limits hold for any end and any evidence.
    function testFuzz_hold_acceptsExactlyTheEndsWithinItsLimit(uint64 until, bool withEvidence) public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        bytes32 evidence = withEvidence ? REPORT : bytes32(0);
        uint256 latest = block.timestamp + (withEvidence ? 90 days : 7 days);
        bool ok = until > block.timestamp && until <= latest;
        vm.prank(moderator);
        if (!ok) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidHoldEnd.selector, until, latest));
        }
        market.holdSale(tokenId, until, evidence);
        assertEq(market.saleHeldUntil(tokenId), ok ? until : 0);
        assertEq(_token(tokenId).forSale, !ok);
    }
}
