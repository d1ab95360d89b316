// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {Actor, GasBurner, GasHungryReceiver, Reentrant, RevertingReceiver} from "./helpers/Receivers.sol";

/// @notice Hostile or clumsy receivers never block a sale, a bid or a refund; their money waits as credits.
contract MoneySafetyTest is MarketplaceTestBase {
    RevertingReceiver internal reverter;
    GasBurner internal burner;
    GasHungryReceiver internal hungry;
    Reentrant internal reentrant;

    function setUp() public override {
        super.setUp();
        reverter = new RevertingReceiver(market);
        burner = new GasBurner(market);
        hungry = new GasHungryReceiver(market);
        reentrant = new Reentrant(market);
        vm.deal(address(reverter), FUNDS);
        vm.deal(address(burner), FUNDS);
        vm.deal(address(hungry), FUNDS);
        vm.deal(address(reentrant), FUNDS);
    }

    function _mintAs(Actor creator, Marketplace.SaleType saleType, uint64 endTime, uint256 base, uint256 price)
        internal
        returns (uint256)
    {
        (address[] memory receivers, uint96[] memory bps) = _two(address(burner), 1_000, address(reverter), 500);
        bytes memory result =
            creator.act(abi.encodeCall(Marketplace.mint, (URI, saleType, receivers, bps, endTime, base, price)), 0);
        return abi.decode(result, (uint256));
    }

    function test_sale_withEveryReceiverHostile_completesAndCreditsThem() public {
        // Seller reverts, royalty receivers burn gas and revert, the admin burns gas.
        vm.prank(admin);
        market.proposeAdmin(address(burner));
        burner.act(abi.encodeCall(Marketplace.acceptAdmin, ()), 0);
        uint256 tokenId = _mintAs(reverter, Marketplace.SaleType.FixedPrice, 0, 0, 1 ether);

        vm.expectEmit(true, true, true, true, address(market));
        emit Credited(address(burner), 0.1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Credited(address(reverter), 0.05 ether);
        uint256 gasBefore = gasleft();
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        uint256 gasUsed = gasBefore - gasleft();

        assertEq(market.ownerOf(tokenId), bob);
        assertEq(market.creditsOf(address(burner)), 0.1 ether + 0.05 ether, "royalty + fee");
        assertEq(market.creditsOf(address(reverter)), 0.05 ether + 0.8 ether, "royalty + proceeds");
        assertEq(market.totalCredits(), 1 ether);
        assertEq(address(market).balance, 1 ether);
        assertLt(gasUsed, 400_000, "four failed pushes cost at most 4 x 10,000 gas each");
    }

    function test_withdrawCredits_paysTheCallerAndEmits() public {
        uint256 tokenId = _mintAs(hungry, Marketplace.SaleType.FixedPrice, 0, 0, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        uint256 credit = market.creditsOf(address(hungry));
        assertEq(credit, 0.8 ether, "the capped push could not pay a receiver that writes storage");
        uint256 before = address(hungry).balance;

        vm.expectEmit(true, true, true, true, address(market));
        emit CreditsWithdrawn(address(hungry), credit);
        hungry.act(abi.encodeCall(Marketplace.withdrawCredits, ()), 0);
        assertEq(address(hungry).balance - before, credit);
        assertEq(hungry.received(), credit);
        assertEq(market.creditsOf(address(hungry)), 0);
        assertEq(market.totalCredits(), 0.15 ether, "the hostile royalty receivers' credits are still there");
    }

    function test_withdrawCredits_toARevertingCaller_reverts_andWithdrawCreditsTo_works() public {
        uint256 tokenId = _mintAs(reverter, Marketplace.SaleType.FixedPrice, 0, 0, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        uint256 credit = market.creditsOf(address(reverter));

        vm.expectRevert(
            abi.encodeWithSelector(Marketplace.MarketplaceWithdrawFailed.selector, address(reverter), credit)
        );
        reverter.act(abi.encodeCall(Marketplace.withdrawCredits, ()), 0);
        assertEq(market.creditsOf(address(reverter)), credit, "a failed withdrawal keeps the credit");

        uint256 before = dave.balance;
        reverter.act(abi.encodeCall(Marketplace.withdrawCreditsTo, (payable(dave))), 0);
        assertEq(dave.balance - before, credit);
        assertEq(market.creditsOf(address(reverter)), 0);
    }

    function test_withdrawCredits_withNothingToWithdraw_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNoCredits.selector, bob));
        vm.prank(bob);
        market.withdrawCredits();
    }

    function test_withdrawCreditsTo_zeroAddress_reverts() public {
        vm.expectRevert(Marketplace.MarketplaceZeroAddress.selector);
        vm.prank(bob);
        market.withdrawCreditsTo(payable(address(0)));
    }

    function test_bid_outbiddingAGasBurner_succeedsAndCreditsIt() public {
        uint256 tokenId = _mintAuction(alice);
        burner.act(abi.encodeCall(Marketplace.bid, (tokenId)), 1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit BidRefunded(tokenId, 1, address(burner), 1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Credited(address(burner), 1 ether);
        _bid(bob, tokenId, 2 ether);
        assertEq(_auction(tokenId).highestBidder, bob);
        assertEq(market.creditsOf(address(burner)), 1 ether);
        assertEq(address(market).balance, market.totalEscrowed() + market.totalCredits());
    }

    function test_reject_ofARevertingBidder_succeedsAndCreditsIt() public {
        uint256 tokenId = _mintAuction(alice);
        reverter.act(abi.encodeCall(Marketplace.bid, (tokenId)), 3 ether);
        vm.prank(alice);
        market.acceptOffer(tokenId, false);
        assertEq(market.creditsOf(address(reverter)), 3 ether);
        assertEq(market.totalEscrowed(), 0);
    }

    function test_stop_withARevertingTopBidder_succeedsAndCreditsIt() public {
        uint256 tokenId = _mintAuction(alice);
        reverter.act(abi.encodeCall(Marketplace.bid, (tokenId)), 3 ether);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        assertEq(market.creditsOf(address(reverter)), 3 ether);
    }

    function test_buyNow_overAGasBurningTopBidder_succeedsAndCreditsIt() public {
        uint256 tokenId = _mintAuction(alice);
        burner.act(abi.encodeCall(Marketplace.bid, (tokenId)), 3 ether);
        vm.prank(bob);
        market.buyToken{value: 10 ether}(tokenId);
        assertEq(market.ownerOf(tokenId), bob);
        assertEq(market.creditsOf(address(burner)), 3 ether);
    }

    function test_transfer_withARevertingTopBidder_succeedsAndCreditsIt() public {
        uint256 tokenId = _mintAuction(alice);
        reverter.act(abi.encodeCall(Marketplace.bid, (tokenId)), 3 ether);
        vm.prank(alice);
        market.transferFrom(alice, dave, tokenId);
        assertEq(market.creditsOf(address(reverter)), 3 ether);
        assertEq(market.ownerOf(tokenId), dave);
    }

    function test_settle_toAHostileWinner_withAHostileSeller_completes() public {
        uint256 tokenId = _mintAs(burner, Marketplace.SaleType.Auction, uint64(block.timestamp + 1 hours), 1 ether, 5 ether);
        reverter.act(abi.encodeCall(Marketplace.bid, (tokenId)), 2 ether);
        vm.warp(_endOf(tokenId));
        market.settleAuction(tokenId);
        assertEq(market.ownerOf(tokenId), address(reverter));
        assertEq(address(market).balance, market.totalEscrowed() + market.totalCredits());
    }

    function test_reentrancy_fromOnERC721Received_duringBuy_isBlocked() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        uint256 other = _mintAuction(alice);
        reentrant.setTarget(other, 1 ether);
        reentrant.act(abi.encodeCall(Marketplace.buyToken, (tokenId)), 1 ether);
        assertEq(market.ownerOf(tokenId), address(reentrant), "the purchase itself went through");
        assertEq(reentrant.attempts(), 12);
        assertEq(reentrant.successes(), 0, "every re-entrant call was refused");
        assertEq(_auction(other).highestBidder, address(0));
    }

    function test_reentrancy_fromReceive_duringWithdraw_isBlocked() public {
        // The reentrant contract sells; its proceeds are pushed with 10,000 gas, which its receive
        // turns down (it needs more), so they become a credit; then it withdraws and tries to re-enter.
        uint256 tokenId = _mintAs(reentrant, Marketplace.SaleType.FixedPrice, 0, 0, 1 ether);
        reentrant.setTarget(tokenId, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        uint256 credit = market.creditsOf(address(reentrant));
        assertEq(credit, 0.8 ether);

        uint256 before = address(reentrant).balance;
        reentrant.act(abi.encodeCall(Marketplace.withdrawCredits, ()), 0);
        assertEq(reentrant.attempts(), 12);
        assertEq(reentrant.successes(), 0);
        assertEq(address(reentrant).balance - before, credit, "paid exactly once");
        assertEq(market.creditsOf(address(reentrant)), 0);
        assertEq(address(market).balance, market.totalCredits(), "only the hostile royalty receivers' credits remain");
    }

    function test_reentrantBidder_outbid_cannotReenterFromTheCappedRefund() public {
        uint256 tokenId = _mintAuction(alice);
        reentrant.setTarget(tokenId, 5 ether);
        reentrant.act(abi.encodeCall(Marketplace.bid, (tokenId)), 1 ether);
        _bid(bob, tokenId, 2 ether);
        assertEq(_auction(tokenId).highestBidder, bob);
        assertEq(reentrant.successes(), 0);
        assertEq(address(market).balance, market.totalEscrowed() + market.totalCredits());
    }
}
