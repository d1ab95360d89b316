// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Vm} from "./utils/Vm.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {RevertingReceiver, ReentrantSeller} from "./helpers/Receivers.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @notice Escrowed offers on any token not in an auction: make, replace, cancel, reject, accept.
contract OffersTest is MarketplaceTestBase {
    uint256 internal constant DAY = 1 days;

    function _expiry() internal view returns (uint256) {
        return block.timestamp + DAY;
    }

    // ---- make ----------------------------------------------------------------------------------

    function test_makeOffer_escrowsTheAmount_andEmitsOfferMade() public {
        uint256 tokenId = _mintNotForSale(alice);
        uint256 bobBefore = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit OfferMade(tokenId, bob, 2 ether, uint64(_expiry()), 500, 0);
        _offer(bob, tokenId, 2 ether, _expiry());

        (uint256 amount, uint64 expiresAt, uint96 feeBps) = market.offerOf(tokenId, bob);
        assertEq(amount, 2 ether);
        assertEq(expiresAt, _expiry());
        assertEq(feeBps, 500);
        assertEq(market.totalOffers(), 2 ether);
        assertEq(bobBefore - bob.balance, 2 ether);
        assertEq(address(market).balance, 2 ether);
        assertEq(market.ownerOf(tokenId), alice, "an offer moves nothing");
        _assertBalanceIsOwed();
    }

    function test_makeOffer_onAFixedPriceListing_isAllowed_andKeepsTheListing() public {
        uint256 tokenId = _mintFixed(alice, 5 ether);
        _offer(bob, tokenId, 3 ether, _expiry());
        assertTrue(_token(tokenId).forSale);
        assertEq(_token(tokenId).price, 5 ether);
    }

    function test_makeOffer_severalOfferersOnOneToken() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        _offer(carol, tokenId, 2 ether, _expiry());
        assertEq(market.totalOffers(), 3 ether);
        (uint256 bobAmount,,) = market.offerOf(tokenId, bob);
        (uint256 carolAmount,,) = market.offerOf(tokenId, carol);
        assertEq(bobAmount, 1 ether);
        assertEq(carolAmount, 2 ether);
    }

    function test_makeOffer_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        uint256 auctioned = _mintAuction(alice);

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInAuction.selector, auctioned));
        _offer(bob, auctioned, 1 ether, _expiry());

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOwnerCannotOffer.selector, tokenId));
        _offer(alice, tokenId, 1 ether, _expiry());

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 99));
        _offer(bob, 99, 1 ether, _expiry());

        vm.expectRevert(Marketplace.MarketplaceZeroPrice.selector);
        _offer(bob, tokenId, 0, _expiry());

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidExpiry.selector, uint64(block.timestamp)));
        _offer(bob, tokenId, 1 ether, block.timestamp);

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInvalidExpiry.selector, uint64(block.timestamp - 1)));
        _offer(bob, tokenId, 1 ether, block.timestamp - 1);
        assertEq(market.totalOffers(), 0);
    }

    function test_makeOffer_afterTheAuctionStops_isAllowed() public {
        uint256 tokenId = _mintAuction(alice);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        _offer(bob, tokenId, 1 ether, _expiry());
        (uint256 amount,,) = market.offerOf(tokenId, bob);
        assertEq(amount, 1 ether);
    }

    // ---- replace -------------------------------------------------------------------------------

    function test_replaceOffer_refundsTheOldAmount_andKeepsOneOfferPerOfferer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        uint256 bobBefore = bob.balance;

        vm.expectEmit(true, true, true, true, address(market));
        emit OfferMade(tokenId, bob, 1 ether, uint64(_expiry() + 5), 500, 2 ether);
        _offer(bob, tokenId, 1 ether, _expiry() + 5);

        (uint256 amount, uint64 expiresAt,) = market.offerOf(tokenId, bob);
        assertEq(amount, 1 ether);
        assertEq(expiresAt, _expiry() + 5);
        assertEq(bob.balance, bobBefore - 1 ether + 2 ether, "old amount back, new one escrowed");
        assertEq(market.totalOffers(), 1 ether);
        _assertBalanceIsOwed();
    }

    function test_replaceOffer_takesTheFeeOfItsMoment() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        vm.prank(admin);
        market.setServiceFeeBps(800);
        _offer(bob, tokenId, 1 ether, _expiry());
        (,, uint96 feeBps) = market.offerOf(tokenId, bob);
        assertEq(feeBps, 800);
    }

    // ---- cancel --------------------------------------------------------------------------------

    function test_cancelOffer_refunds_liveOrExpired() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        _offer(carol, tokenId, 3 ether, _expiry());
        uint256 bobBefore = bob.balance;

        vm.expectEmit(true, true, true, true, address(market));
        emit OfferCancelled(tokenId, bob, 2 ether);
        vm.prank(bob);
        market.cancelOffer(tokenId);
        assertEq(bob.balance - bobBefore, 2 ether);

        vm.warp(block.timestamp + 2 * DAY); // carol's offer has expired: it can still be cancelled
        uint256 carolBefore = carol.balance;
        vm.prank(carol);
        market.cancelOffer(tokenId);
        assertEq(carol.balance - carolBefore, 3 ether);
        assertEq(market.totalOffers(), 0);
        assertEq(address(market).balance, 0);
        (uint256 amount,,) = market.offerOf(tokenId, bob);
        assertEq(amount, 0);
    }

    function test_cancelOffer_withoutAnOffer_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoOffer.selector, tokenId, bob));
        vm.prank(bob);
        market.cancelOffer(tokenId);

        _offer(bob, tokenId, 1 ether, _expiry());
        vm.prank(bob);
        market.cancelOffer(tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoOffer.selector, tokenId, bob));
        vm.prank(bob);
        market.cancelOffer(tokenId);
    }

    // ---- reject --------------------------------------------------------------------------------

    function test_rejectOffer_refundsTheOfferer_liveOrExpired() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        _offer(carol, tokenId, 1 ether, _expiry());
        uint256 bobBefore = bob.balance;

        vm.expectEmit(true, true, true, true, address(market));
        emit OfferRejected(tokenId, bob, 2 ether);
        vm.prank(alice);
        market.rejectOfferFrom(tokenId, bob);
        assertEq(bob.balance - bobBefore, 2 ether);

        vm.warp(block.timestamp + 2 * DAY);
        vm.prank(alice);
        market.rejectOfferFrom(tokenId, carol);
        assertEq(market.totalOffers(), 0);
        assertEq(address(market).balance, 0);
    }

    function test_rejectOffer_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(dave);
        market.rejectOfferFrom(tokenId, bob);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoOffer.selector, tokenId, carol));
        vm.prank(alice);
        market.rejectOfferFrom(tokenId, carol);
    }

    // ---- accept --------------------------------------------------------------------------------

    function test_acceptOffer_paysExactlyAsAPurchase_andMovesTheToken() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        _offer(carol, tokenId, 1 ether, _expiry());
        (uint256 fee, uint256 r0, uint256 r1, uint256 proceeds) = _split(2 ether);
        uint256 aliceBefore = alice.balance;

        vm.recordLogs();
        vm.expectEmit(true, true, true, true, address(market));
        emit OfferAccepted(tokenId, bob, alice, 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, bob, tokenId);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 0, bob, alice, 2 ether, fee, r0 + r1, proceeds);
        vm.expectEmit(true, true, true, true, address(market));
        emit RoyaltyPaid(tokenId, royaltyA, r0);
        vm.expectEmit(true, true, true, true, address(market));
        emit RoyaltyPaid(tokenId, royaltyB, r1);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 2 ether, 0);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(_count(logs, SaleUpdated.selector), 0, "no listing to clear");

        assertEq(market.ownerOf(tokenId), bob);
        assertEq(alice.balance - aliceBefore, proceeds);
        assertEq(admin.balance, fee);
        assertEq(royaltyA.balance, r0);
        assertEq(royaltyB.balance, r1);
        (uint256 amount,,) = market.offerOf(tokenId, bob);
        assertEq(amount, 0, "the accepted offer is gone");
        (amount,,) = market.offerOf(tokenId, carol);
        assertEq(amount, 1 ether, "other offers stay (for the new owner)");
        assertEq(market.totalOffers(), 1 ether);
        assertEq(_token(tokenId).previousOwner, alice);
        assertEq(_token(tokenId).numberOfTransfers, 1);
        _assertBalanceIsOwed();
    }

    function test_acceptOffer_clearsAFixedPriceListing() public {
        uint256 tokenId = _mintFixed(alice, 5 ether);
        _offer(bob, tokenId, 3 ether, _expiry());
        vm.expectEmit(true, true, true, true, address(market));
        emit OfferAccepted(tokenId, bob, alice, 3 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, bob, tokenId);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 3 ether, 0);
        Marketplace.TokenInfo memory info = _token(tokenId);
        assertFalse(info.forSale);
        assertEq(info.price, 0);
        assertEq(market.serviceFeeBpsOf(tokenId), 0);
    }

    function test_acceptOffer_paysTheFeeSnapshottedWhenTheOfferWasMade() public {
        uint256 tokenId = _mintFixed(alice, 5 ether); // listing snapshot 5%
        _offer(bob, tokenId, 1 ether, _expiry()); // offer snapshot 5%
        vm.prank(admin);
        market.setServiceFeeBps(1_000);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        assertEq(admin.balance, 0.05 ether, "the offer's fee, not the fee of now");
    }

    function test_acceptOffer_newOwnerAcceptsAnOfferMadeBeforeATransfer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        vm.prank(alice);
        market.transferFrom(alice, carol, tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        uint256 carolBefore = carol.balance;
        vm.prank(carol);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        assertEq(market.ownerOf(tokenId), bob);
        (,,, uint256 proceeds) = _split(1 ether);
        assertEq(carol.balance - carolBefore, proceeds, "the current owner is paid");
    }

    function test_acceptOffer_afterExpiry_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        uint64 expiresAt = uint64(_expiry());
        vm.warp(expiresAt);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOfferExpired.selector, tokenId, bob, expiresAt));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        vm.warp(expiresAt - 1);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0); // one second before, it still works
        assertEq(market.ownerOf(tokenId), bob);
    }

    /// Bob sees the owner about to accept his 2 ether and replaces it with 0.1 ether first: the
    /// owner's transaction names 2 ether, so it reverts instead of selling for 0.1.
    function test_acceptOffer_frontRunByALowerOffer_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        _offer(bob, tokenId, 0.1 ether, _expiry()); // the front-run
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOfferChanged.selector, 2 ether, 0.1 ether));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 2 ether, 0);
        assertEq(market.ownerOf(tokenId), alice);
        (uint256 amount,,) = market.offerOf(tokenId, bob);
        assertEq(amount, 0.1 ether, "the offer stays as it is");
    }

    function test_acceptOffer_cancelledMeanwhile_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        vm.prank(bob);
        market.cancelOffer(tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoOffer.selector, tokenId, bob));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 2 ether, 0);
    }

    function test_acceptOffer_reverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNotOwner.selector, tokenId));
        vm.prank(bob);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);

        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOwnerCannotOffer.selector, tokenId));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, alice, 1 ether, 0);

        // Put in an auction after the offer: no accept until the auction is stopped.
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 10 ether, uint64(block.timestamp + 1 hours), 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceInAuction.selector, tokenId));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        assertEq(market.ownerOf(tokenId), bob);
    }

    /// The offerer bought the token meanwhile: its own offer can only be cancelled.
    /// An offerer that buys the token gets its offer back at once, so as owner it holds none: naming
    /// itself as the offerer is refused before any offer is looked up.
    function test_acceptOffer_ofTheOwnerItself_reverts() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _offer(bob, tokenId, 0.5 ether, _expiry());
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        assertEq(market.totalOffers(), 0, "refunded by the purchase");
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceOwnerCannotOffer.selector, tokenId));
        vm.prank(bob);
        market.acceptOfferFrom(tokenId, bob, 0.5 ether, 0);
    }

    // ---- burn ----------------------------------------------------------------------------------

    /// Burning does not loop over the offers: they stay escrowed, can never be accepted (the token id
    /// is never reused), and each offerer cancels its own.
    function test_burn_leavesOffersCancellable_andNeverAcceptable() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        _offer(carol, tokenId, 2 ether, _expiry());
        vm.prank(alice);
        market.burn(tokenId);

        assertEq(market.totalOffers(), 3 ether, "still escrowed");
        _assertBalanceIsOwed();
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, tokenId));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, tokenId));
        vm.prank(alice);
        market.rejectOfferFrom(tokenId, bob);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, tokenId));
        _offer(dave, tokenId, 1 ether, _expiry());

        uint256 bobBefore = bob.balance;
        vm.prank(bob);
        market.cancelOffer(tokenId);
        assertEq(bob.balance - bobBefore, 1 ether);
        vm.warp(block.timestamp + 30 days); // expired too: still cancellable
        vm.prank(carol);
        market.cancelOffer(tokenId);
        assertEq(market.totalOffers(), 0);
        assertEq(address(market).balance, 0);
    }

    // ---- hostile actors ------------------------------------------------------------------------

    /// An offerer that refuses ether: every refund of its offers (replaced, rejected, cancelled)
    /// becomes a credit it withdraws elsewhere; nobody is blocked.
    function test_revertingOfferer_refundsBecomeCredits() public {
        RevertingReceiver reverter = new RevertingReceiver(market);
        vm.deal(address(reverter), 10 ether);
        uint256 tokenId = _mintNotForSale(alice);
        uint256 other = _mintNotForSale(alice);
        uint64 expiresAt = uint64(_expiry());

        reverter.act(abi.encodeCall(Marketplace.makeOffer, (tokenId, expiresAt)), 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit OfferMade(tokenId, address(reverter), 1 ether, expiresAt, 500, 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Credited(address(reverter), 2 ether);
        reverter.act(abi.encodeCall(Marketplace.makeOffer, (tokenId, expiresAt)), 1 ether); // replaced
        assertEq(market.creditsOf(address(reverter)), 2 ether);

        vm.prank(alice);
        market.rejectOfferFrom(tokenId, address(reverter)); // rejected
        assertEq(market.creditsOf(address(reverter)), 3 ether);

        reverter.act(abi.encodeCall(Marketplace.makeOffer, (other, expiresAt)), 4 ether);
        reverter.act(abi.encodeCall(Marketplace.cancelOffer, (other)), 0); // cancelled
        assertEq(market.creditsOf(address(reverter)), 7 ether);
        assertEq(market.totalOffers(), 0);
        _assertBalanceIsOwed();

        reverter.act(abi.encodeCall(Marketplace.withdrawCreditsTo, (payable(dave))), 0);
        assertEq(dave.balance, FUNDS + 7 ether);
        assertEq(address(market).balance, 0);
    }

    /// A reverting offerer still gets the token when its offer is accepted (plain transfer), and a
    /// reverting seller's proceeds become a credit.
    function test_acceptOffer_withHostileParties_completes() public {
        RevertingReceiver reverter = new RevertingReceiver(market);
        vm.deal(address(reverter), 10 ether);
        uint256 tokenId = _mintNotForSale(alice);
        reverter.act(abi.encodeCall(Marketplace.makeOffer, (tokenId, uint64(_expiry()))), 1 ether);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, address(reverter), 1 ether, 0);
        assertEq(market.ownerOf(tokenId), address(reverter));

        _offer(bob, tokenId, 2 ether, _expiry());
        reverter.act(abi.encodeCall(Marketplace.acceptOfferFrom, (tokenId, bob, 2 ether, 0)), 0);
        assertEq(market.ownerOf(tokenId), bob);
        (,,, uint256 proceeds) = _split(2 ether);
        assertEq(market.creditsOf(address(reverter)), proceeds, "the seller's proceeds wait as a credit");
        _assertBalanceIsOwed();
    }

    /// The owner is a contract whose `receive` (run by the push of its proceeds) re-enters to accept a
    /// second offer on the same token: the guard refuses it, the second offer stays, the sale completes.
    function test_reentrantOwner_acceptReenteringFromItsProceeds_isRefused() public {
        uint256 tokenId = market.lastTokenId() + 1;
        ReentrantSeller seller = new ReentrantSeller(market, tokenId, carol, 3 ether);
        (address[] memory receivers, uint96[] memory bps) = _none();
        bytes memory minted = seller.act(
            abi.encodeCall(Marketplace.mint, (URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0)), 0
        );
        assertEq(abi.decode(minted, (uint256)), tokenId);
        _offer(bob, tokenId, 1 ether, _expiry());
        _offer(carol, tokenId, 3 ether, _expiry());

        vm.recordLogs();
        seller.act(abi.encodeCall(Marketplace.acceptOfferFrom, (tokenId, bob, 1 ether, 0)), 0);
        Vm.Log[] memory logs = vm.getRecordedLogs();

        uint256 attempts;
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].emitter != address(seller) || logs[i].topics[0] != ReentrantSeller.Reentered.selector) continue;
            attempts += 1;
            (bool ok, bytes4 selector) = abi.decode(logs[i].data, (bool, bytes4));
            assertFalse(ok, "the re-entrant accept failed");
            assertTrue(selector == ReentrancyGuard.ReentrancyGuardReentrantCall.selector, "refused by the guard");
        }
        assertEq(attempts, 1, "the re-entrant call was made once");
        assertEq(market.ownerOf(tokenId), bob);
        (uint256 amount,,) = market.offerOf(tokenId, carol);
        assertEq(amount, 3 ether, "the second offer is untouched");
        assertEq(address(seller).balance, 0.95 ether, "proceeds pushed (the receive took them)");
        assertEq(market.creditsOf(address(seller)), 0);
        _assertBalanceIsOwed();
    }

    // ---- fuzz ----------------------------------------------------------------------------------

    /// Any amount, fee and royalties: the accepted offer's split adds up to the amount and everyone
    /// is paid exactly their share.
    function testFuzz_acceptOffer_splitAddsUpToTheOffer(uint256 amount, uint96 feeBps, uint96 royaltyBps) public {
        amount = bound(amount, 1, 1_000 ether);
        feeBps = uint96(bound(feeBps, 0, 1_000));
        royaltyBps = uint96(bound(royaltyBps, 1, 9_000));
        vm.prank(admin);
        market.setServiceFeeBps(feeBps);
        (address[] memory receivers, uint96[] memory bps) = _one(royaltyA, royaltyBps);
        vm.prank(alice);
        uint256 tokenId = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        _offer(bob, tokenId, amount, _expiry());
        _acceptAndCheck(tokenId, amount, (amount * feeBps) / 10_000, (amount * royaltyBps) / 10_000);
    }

    function _acceptAndCheck(uint256 tokenId, uint256 amount, uint256 fee, uint256 royalties) internal {
        uint256 aliceBefore = alice.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 0, bob, alice, amount, fee, royalties, amount - fee - royalties);
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, amount, 0);
        assertEq(admin.balance, fee);
        assertEq(royaltyA.balance, royalties);
        assertEq(alice.balance - aliceBefore, amount - fee - royalties);
        assertEq(address(market).balance, 0);
    }

    /// Random offers, replacements, cancellations, rejections and acceptances by three offerers on
    /// three tokens: the market always holds exactly the live offers (there are no bids or credits).
    function testFuzz_offers_balanceIsExactlyTheLiveOffers(uint256[12] memory steps) public {
        uint256[3] memory tokens = [_mintNotForSale(alice), _mintNotForSale(alice), _mintFixed(alice, 1 ether)];
        address[3] memory offerers = [bob, carol, dave];
        for (uint256 i = 0; i < steps.length; ++i) {
            uint256 s = steps[i];
            uint256 tokenId = tokens[s % 3];
            address offerer = offerers[(s >> 8) % 3];
            uint256 amount = bound(s >> 16, 1, 10 ether);
            (uint256 live,,) = market.offerOf(tokenId, offerer);
            address owner = market.ownerOf(tokenId);
            uint256 action = (s >> 128) % 4;
            if (offerer == owner) continue;
            if (action == 0 || live == 0) {
                _offer(offerer, tokenId, amount, _expiry());
            } else if (action == 1) {
                vm.prank(offerer);
                market.cancelOffer(tokenId);
            } else if (action == 2) {
                vm.prank(owner);
                market.rejectOfferFrom(tokenId, offerer);
            } else {
                vm.prank(owner);
                market.acceptOfferFrom(tokenId, offerer, live, 0);
            }
            uint256 sum;
            for (uint256 t = 0; t < 3; ++t) {
                for (uint256 o = 0; o < 3; ++o) {
                    (uint256 a,,) = market.offerOf(tokens[t], offerers[o]);
                    sum += a;
                }
            }
            assertEq(sum, market.totalOffers(), "totalOffers == sum of live offers");
            assertEq(address(market).balance, sum, "balance == offers");
        }
    }
}
