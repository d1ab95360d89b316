// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Vm} from "./utils/Vm.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {Actor, RevertingReceiver} from "./helpers/Receivers.sol";

/// @notice The offer rules of the "finish" issue: an offer is refunded when its offerer gets the token
/// (on every transfer path), an offer lives at most {MAX_OFFER_DURATION}, and the owner's accept names
/// the least it receives (`minProceeds`). Also the asking price cap ({MAX_PRICE}).
contract OfferRulesTest is MarketplaceTestBase {
    function _expiry() internal view returns (uint256) {
        return block.timestamp + 1 days;
    }

    /// @dev Checks that `offerer`'s offer on `tokenId` is gone, refunded in full (`before` is its balance
    /// before the transaction, `spent` what it paid in it), and that the logs hold the refund.
    function _assertRefunded(uint256 tokenId, address offerer, uint256 amount, uint256 before, uint256 spent)
        internal
        view
    {
        (uint256 left,,) = market.offerOf(tokenId, offerer);
        assertEq(left, 0, "the new owner's offer is gone");
        assertEq(offerer.balance, before - spent + amount, "and refunded in the same transaction");
        assertEq(market.totalOffers(), 0);
        _assertBalanceIsOwed();
    }

    // ---- refund when the offerer gets the token ------------------------------------------------

    /// The issue's case: bob offers 5, buys the token for 1, sells it on; the next owner could sell it
    /// back to bob at 5. Now the purchase refunds the 5 and there is nothing to accept later.
    function test_buyToken_refundsTheBuyersOffer_soNoLaterOwnerCanSellBackAtIt() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _offer(bob, tokenId, 5 ether, _expiry());
        uint256 before = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit OfferCancelled(tokenId, bob, 5 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        _assertRefunded(tokenId, bob, 5 ether, before, 1 ether);

        vm.prank(bob);
        market.transferFrom(bob, carol, tokenId);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoOffer.selector, tokenId, bob));
        vm.prank(carol);
        market.acceptOfferFrom(tokenId, bob, 5 ether, 0);
    }

    /// The log order: Transfer, then the refund's OfferCancelled, then the sale's Sold.
    function test_buyToken_refundEvent_followsTheTransfer() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _offer(bob, tokenId, 2 ether, _expiry());
        vm.recordLogs();
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        uint256 transferAt;
        uint256 cancelledAt;
        uint256 soldAt;
        for (uint256 i = 0; i < logs.length; ++i) {
            bytes32 t = logs[i].topics[0];
            if (t == Transfer.selector) transferAt = i;
            if (t == OfferCancelled.selector) cancelledAt = i;
            if (t == Sold.selector) soldAt = i;
        }
        assertLt(transferAt, cancelledAt, "Transfer first");
        assertLt(cancelledAt, soldAt, "the refund before the sale");
        assertEq(_count(logs, OfferCancelled.selector), 1);
    }

    function test_plainTransfer_refundsTheReceiversOffer_andKeepsTheOthers() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        _offer(carol, tokenId, 3 ether, _expiry());
        uint256 before = bob.balance;
        vm.prank(alice);
        market.transferFrom(alice, bob, tokenId);
        (uint256 left,,) = market.offerOf(tokenId, bob);
        assertEq(left, 0);
        assertEq(bob.balance, before + 2 ether);
        (uint256 carols,,) = market.offerOf(tokenId, carol);
        assertEq(carols, 3 ether, "another offer stays for the new owner to accept or reject");
        assertEq(market.totalOffers(), 3 ether);
        _assertBalanceIsOwed();
        vm.prank(bob);
        market.acceptOfferFrom(tokenId, carol, 3 ether, 0);
        assertEq(market.ownerOf(tokenId), carol);
        assertEq(market.totalOffers(), 0);
    }

    function test_safeTransfer_refundsTheReceiversOffer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        uint256 before = bob.balance;
        vm.prank(alice);
        market.safeTransferFrom(alice, bob, tokenId);
        _assertRefunded(tokenId, bob, 2 ether, before, 0);
    }

    /// A transfer of another token, or to someone else, leaves the offer alone.
    function test_transferToAnotherAccount_keepsTheOffer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        vm.prank(alice);
        market.transferFrom(alice, carol, tokenId);
        (uint256 left,,) = market.offerOf(tokenId, bob);
        assertEq(left, 2 ether);
    }

    function test_cart_refundsTheBuyersOffers() public {
        uint256 first = _mintFixed(alice, 1 ether);
        uint256 second = _mintFixed(alice, 1 ether);
        _offer(bob, first, 3 ether, _expiry());
        _offer(bob, second, 4 ether, _expiry());
        _offer(carol, second, 5 ether, _expiry());
        uint256[] memory ids = new uint256[](2);
        uint256[] memory prices = new uint256[](2);
        ids[0] = first;
        ids[1] = second;
        prices[0] = 1 ether;
        prices[1] = 1 ether;
        uint256 before = bob.balance;
        vm.recordLogs();
        vm.prank(bob);
        market.buyTokens{value: 2 ether}(ids, prices);
        assertEq(_count(vm.getRecordedLogs(), OfferCancelled.selector), 2);
        assertEq(bob.balance, before - 2 ether + 7 ether);
        assertEq(market.totalOffers(), 5 ether, "carol's offer stays");
        _assertBalanceIsOwed();
    }

    /// An offer made before the token went to auction: the winner's offer comes back when it settles.
    function test_settledAuction_refundsTheWinnersOffer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 4 ether, _expiry());
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 10 ether, uint64(block.timestamp + 1 hours), 1 ether);
        _bid(bob, tokenId, 2 ether);
        vm.warp(block.timestamp + 2 hours);
        uint256 before = bob.balance;
        market.settleAuction(tokenId);
        assertEq(market.ownerOf(tokenId), bob);
        _assertRefunded(tokenId, bob, 4 ether, before, 0);
    }

    function test_acceptedBid_refundsTheWinnersOffer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 4 ether, _expiry());
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 10 ether, uint64(block.timestamp + 1 hours), 1 ether);
        _bid(bob, tokenId, 2 ether);
        uint256 before = bob.balance;
        vm.prank(alice);
        market.acceptOffer(tokenId, true);
        _assertRefunded(tokenId, bob, 4 ether, before, 0);
    }

    function test_buyNow_refundsTheBuyersOffer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 4 ether, _expiry());
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 10 ether, uint64(block.timestamp + 1 hours), 1 ether);
        uint256 before = bob.balance;
        vm.prank(bob);
        market.buyToken{value: 10 ether}(tokenId);
        _assertRefunded(tokenId, bob, 4 ether, before, 10 ether);
    }

    /// Accepting one offer consumes that offer; the buyer has no other offer on the token to refund,
    /// and the other offerers keep theirs.
    function test_acceptedOffer_consumesOnlyThatOffer() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 2 ether, _expiry());
        _offer(carol, tokenId, 3 ether, _expiry());
        vm.recordLogs();
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, carol, 3 ether, 0);
        assertEq(_count(vm.getRecordedLogs(), OfferCancelled.selector), 0);
        assertEq(market.totalOffers(), 2 ether);
        _assertBalanceIsOwed();
        // Then carol (the owner now) sells to bob at his offer; nothing is left escrowed.
        vm.prank(carol);
        market.acceptOfferFrom(tokenId, bob, 2 ether, 0);
        assertEq(market.totalOffers(), 0);
    }

    /// The refund is a push like every refund: an offerer that refuses ether gets a credit, and the
    /// transfer goes through.
    function test_refusedRefund_becomesACredit() public {
        RevertingReceiver offerer = new RevertingReceiver(market);
        vm.deal(address(offerer), 10 ether);
        uint256 tokenId = _mintNotForSale(alice);
        offerer.act(abi.encodeCall(Marketplace.makeOffer, (tokenId, uint64(_expiry()))), 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Credited(address(offerer), 2 ether);
        vm.prank(alice);
        market.transferFrom(alice, address(offerer), tokenId);
        assertEq(market.creditsOf(address(offerer)), 2 ether);
        assertEq(market.totalOffers(), 0);
        _assertBalanceIsOwed();
    }

    /// The per-token count of open offers follows makes, replacements, cancellations, rejections and
    /// refunds, so a transfer finds an offer whenever there is one.
    function test_offerCount_followsEveryChange() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        _offer(bob, tokenId, 2 ether, _expiry()); // a replacement is not a new offer
        _offer(carol, tokenId, 1 ether, _expiry());
        vm.prank(carol);
        market.cancelOffer(tokenId);
        _offer(dave, tokenId, 1 ether, _expiry());
        vm.prank(alice);
        market.rejectOfferFrom(tokenId, dave);
        _offer(carol, tokenId, 3 ether, _expiry());
        // Open: bob 2, carol 3. Each receiver of the token gets its own back.
        vm.prank(alice);
        market.transferFrom(alice, carol, tokenId);
        vm.prank(carol);
        market.transferFrom(carol, bob, tokenId);
        assertEq(market.totalOffers(), 0);
        _assertBalanceIsOwed();
        // And new offers on the token are counted again.
        _offer(alice, tokenId, 1 ether, _expiry());
        vm.prank(bob);
        market.transferFrom(bob, alice, tokenId);
        assertEq(market.totalOffers(), 0);
    }

    /// A burn clears the count with the token; its offers are still cancelled one by one.
    function test_burn_thenCancel_keepsTheCountConsistent() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        _offer(carol, tokenId, 1 ether, _expiry());
        vm.prank(alice);
        market.burn(tokenId);
        vm.prank(bob);
        market.cancelOffer(tokenId);
        vm.prank(carol);
        market.cancelOffer(tokenId);
        assertEq(market.totalOffers(), 0);
        _assertBalanceIsOwed();
    }

    // ---- lifetime -----------------------------------------------------------------------------

    function test_makeOffer_lastsAtMost180Days() public {
        uint256 tokenId = _mintNotForSale(alice);
        assertEq(market.MAX_OFFER_DURATION(), 180 days);
        uint256 latest = block.timestamp + 180 days;
        _offer(bob, tokenId, 1 ether, latest);
        (, uint64 expiresAt,) = market.offerOf(tokenId, bob);
        assertEq(expiresAt, latest);

        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceOfferTooLong.selector, uint64(latest + 1), latest)
        );
        vm.prank(carol);
        market.makeOffer{value: 1 ether}(tokenId, uint64(latest + 1));

        // A replacement is bound the same way, from its own moment.
        vm.warp(block.timestamp + 100 days);
        vm.expectRevert(
            abi.encodeWithSelector(
                Marketplace.MarketplaceOfferTooLong.selector, uint64(type(uint64).max), block.timestamp + 180 days
            )
        );
        vm.prank(bob);
        market.makeOffer{value: 1 ether}(tokenId, type(uint64).max);
    }

    // ---- minProceeds --------------------------------------------------------------------------

    /// 1 ether at 5% fee and 12.5% royalties leaves the seller 0.825 ether: naming exactly that works,
    /// one wei more reverts with the proceeds the sale would pay.
    function test_acceptOffer_minProceeds_exactPasses_oneMoreReverts() public {
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, 1 ether, _expiry());
        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceProceedsTooLow.selector, 0.825 ether + 1, 0.825 ether)
        );
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0.825 ether + 1);

        uint256 before = alice.balance;
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, 0.825 ether);
        assertEq(alice.balance - before, 0.825 ether);
    }

    /// The issue's case: the offerer replaces its offer with the same amount after a fee rise. The
    /// amount check alone would pass; the seller's floor (from the fee it was shown) makes it revert.
    function test_acceptOffer_sameAmountAfterAFeeRise_revertsOnTheSellersFloor() public {
        uint256 tokenId = _mintNotForSale(alice);
        vm.prank(admin);
        market.setServiceFeeBps(0);
        _offer(bob, tokenId, 1 ether, _expiry());
        uint256 shown = 1 ether - 0.125 ether; // 0% fee, 12.5% royalties
        vm.prank(admin);
        market.setServiceFeeBps(1_000);
        _offer(bob, tokenId, 1 ether, _expiry()); // same amount, now at 10%
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceProceedsTooLow.selector, shown, 0.775 ether));
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, 1 ether, shown);
        (uint256 amount,,) = market.offerOf(tokenId, bob);
        assertEq(amount, 1 ether, "nothing changed");
    }

    function testFuzz_acceptOffer_minProceeds(uint256 amount, uint96 feeBps, uint256 floor) public {
        amount = bound(amount, 1, 100_000 ether);
        feeBps = uint96(bound(feeBps, 0, 1_000));
        vm.prank(admin);
        market.setServiceFeeBps(feeBps);
        uint256 tokenId = _mintNotForSale(alice);
        _offer(bob, tokenId, amount, _expiry());
        uint256 proceeds = amount - (amount * feeBps) / 10_000 - (amount * 1_000) / 10_000 - (amount * 250) / 10_000;
        floor = bound(floor, 0, amount);
        if (floor > proceeds) {
            vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceProceedsTooLow.selector, floor, proceeds));
        }
        vm.recordLogs();
        vm.prank(alice);
        market.acceptOfferFrom(tokenId, bob, amount, floor);
        if (floor <= proceeds) {
            Vm.Log[] memory logs = vm.getRecordedLogs();
            for (uint256 i = 0; i < logs.length; ++i) {
                if (logs[i].topics[0] != Sold.selector) continue;
                (,, uint256 fee, uint256 royalties, uint256 sellerProceeds) =
                    abi.decode(logs[i].data, (address, uint256, uint256, uint256, uint256));
                assertEq(sellerProceeds, proceeds, "the floor is checked against what Sold pays");
                assertEq(fee + royalties + sellerProceeds, amount);
            }
        }
        _assertBalanceIsOwed();
    }

    // ---- price cap ----------------------------------------------------------------------------

    function test_prices_aboveMaxPrice_revert() public {
        uint256 max = market.MAX_PRICE();
        assertEq(max, type(uint96).max);
        (address[] memory receivers, uint96[] memory bps) = _none();
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplacePriceTooHigh.selector, max + 1));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, max + 1);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplacePriceTooHigh.selector, max + 1));
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, uint64(block.timestamp + 1 days), 1, max + 1);

        uint256 tokenId = _mintFixed(alice, max);
        assertEq(_token(tokenId).price, max, "the cap itself is a valid price");
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplacePriceTooHigh.selector, max + 1));
        vm.prank(alice);
        market.changeTokenPrice(tokenId, max + 1);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplacePriceTooHigh.selector, max + 1));
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, max + 1, 0, 0);
    }

    /// The price shares a slot with the previous owner: a sale sets one and clears the other.
    function test_sale_setsThePreviousOwner_andClearsThePrice() public {
        uint256 tokenId = _mintFixed(alice, 3 ether);
        vm.prank(bob);
        market.buyToken{value: 3 ether}(tokenId);
        Marketplace.TokenInfo memory info = _token(tokenId);
        assertEq(info.previousOwner, alice);
        assertEq(info.price, 0);
        vm.prank(bob);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 7 ether, 0, 0);
        info = _token(tokenId);
        assertEq(info.previousOwner, alice, "listing keeps the previous owner");
        assertEq(info.price, 7 ether);
    }
}
