// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Vm} from "./utils/Vm.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {CountingReceiver, GasBurner, NoReceiver, RevertingReceiver} from "./helpers/Receivers.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

/// @notice buyTokens: several fixed-price tokens in one transaction, each at most at the price seen.
contract CartTest is MarketplaceTestBase {
    bytes32 internal constant SOLD = keccak256("Sold(uint256,uint256,address,address,uint256,uint256,uint256,uint256)");

    function _cart(uint256 a, uint256 b) internal pure returns (uint256[] memory ids) {
        ids = new uint256[](2);
        ids[0] = a;
        ids[1] = b;
    }

    function _cart(uint256 a, uint256 b, uint256 c) internal pure returns (uint256[] memory ids) {
        ids = new uint256[](3);
        ids[0] = a;
        ids[1] = b;
        ids[2] = c;
    }

    function _buy(address buyer, uint256[] memory ids, uint256[] memory seen, uint256 value) internal {
        vm.prank(buyer);
        market.buyTokens{value: value}(ids, seen);
    }

    /// Each item's Sold ends its listing: a cart emits no SaleUpdated (one event less per item).
    function test_cart_emitsTheEventsOfEachSale_inOrder_thenCartPurchased() public {
        uint256 a = _mintFixed(alice, 1 ether);
        uint256 b = _mintFixed(carol, 2 ether);
        (uint256 feeA, uint256 r0A, uint256 r1A, uint256 proceedsA) = _split(1 ether);
        vm.recordLogs();
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(alice, bob, a);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(a, 0, bob, alice, 1 ether, feeA, r0A + r1A, proceedsA);
        vm.expectEmit(true, true, true, true, address(market));
        emit RoyaltyPaid(a, royaltyA, r0A);
        vm.expectEmit(true, true, true, true, address(market));
        emit RoyaltyPaid(a, royaltyB, r1A);
        vm.expectEmit(true, true, true, true, address(market));
        emit Transfer(carol, bob, b);
        (uint256 feeB, uint256 r0B, uint256 r1B, uint256 proceedsB) = _split(2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(b, 0, bob, carol, 2 ether, feeB, r0B + r1B, proceedsB);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartPurchased(bob, 2, 2, 3 ether, 0);
        _buy(bob, _cart(a, b), _cart(1 ether, 2 ether), 3 ether);
        assertEq(_count(vm.getRecordedLogs(), SaleUpdated.selector), 0, "the sales end the listings");
        assertEq(market.tokenInfo(a).forSale, false);
        assertEq(market.tokenInfo(b).price, 0);
    }

    function test_cart_buysEveryItem_andPaysEachPayeeItsSum() public {
        uint256 a = _mintFixed(alice, 1 ether);
        uint256 b = _mintFixed(alice, 2 ether);
        uint256 c = _mintFixed(carol, 4 ether);
        uint256 aliceBefore = alice.balance;
        uint256 carolBefore = carol.balance;
        uint256 bobBefore = bob.balance;
        _buy(bob, _cart(a, b, c), _cart(1 ether, 2 ether, 4 ether), 7 ether);

        assertEq(market.ownerOf(a), bob);
        assertEq(market.ownerOf(b), bob);
        assertEq(market.ownerOf(c), bob);
        assertEq(bobBefore - bob.balance, 7 ether);
        (,,, uint256 proceeds3) = _split(3 ether);
        (uint256 fee, uint256 r0, uint256 r1, uint256 proceeds4) = _split(7 ether);
        proceeds4 -= proceeds3; // the splits round nothing at these prices
        assertEq(alice.balance - aliceBefore, proceeds3, "alice: items a and b");
        assertEq(carol.balance - carolBefore, proceeds4, "carol: item c");
        assertEq(admin.balance, fee);
        assertEq(royaltyA.balance, r0);
        assertEq(royaltyB.balance, r1);
        assertEq(address(market).balance, 0);
        assertFalse(_token(a).forSale);
        assertEq(_token(b).price, 0);
        assertEq(_token(c).previousOwner, carol);
    }

    /// Three items of one seller: the seller is paid once, with the sum of its proceeds.
    function test_cart_paysASellerOnce_forAllItsItems() public {
        CountingReceiver seller = new CountingReceiver(market);
        (address[] memory receivers, uint96[] memory bps) = _none();
        uint256[] memory ids = new uint256[](3);
        for (uint256 i = 0; i < 3; ++i) {
            bytes memory minted = seller.act(
                abi.encodeCall(Marketplace.mint, (URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether)), 0
            );
            ids[i] = abi.decode(minted, (uint256));
        }
        _buy(bob, ids, _cart(1 ether, 1 ether, 1 ether), 3 ether);
        assertEq(seller.receipts() - 1, 1, "one payment");
        assertEq(address(seller).balance, 3 ether - 0.15 ether, "the three proceeds");
        assertEq(market.creditsOf(address(seller)), 0);
    }

    /// One item sold meanwhile, one repriced upwards, one repriced downwards: the first two are skipped
    /// and their seen prices refunded, the third is bought at its new, lower price.
    function test_cart_skipsSoldAndRaisedItems_andRefundsTheRest() public {
        uint256 sold = _mintFixed(alice, 1 ether);
        uint256 raised = _mintFixed(alice, 2 ether);
        uint256 lowered = _mintFixed(alice, 3 ether);
        vm.prank(carol);
        market.buyToken{value: 1 ether}(sold);
        vm.prank(alice);
        market.changeTokenPrice(raised, 2.5 ether);
        vm.prank(alice);
        market.changeTokenPrice(lowered, 2 ether);
        uint256 bobBefore = bob.balance;

        vm.recordLogs();
        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(sold, bob, 1 ether, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(raised, bob, 2 ether, 2.5 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartPurchased(bob, 3, 1, 2 ether, 4 ether);
        _buy(bob, _cart(sold, raised, lowered), _cart(1 ether, 2 ether, 3 ether), 6 ether);
        Vm.Log[] memory logs = vm.getRecordedLogs();

        assertEq(_count(logs, SOLD), 1, "one sale");
        assertEq(bobBefore - bob.balance, 2 ether, "paid the lowered price only");
        assertEq(market.ownerOf(sold), carol);
        assertEq(market.ownerOf(raised), alice);
        assertTrue(_token(raised).forSale, "a skipped item keeps its listing");
        assertEq(market.ownerOf(lowered), bob);
        assertEq(address(market).balance, 0);
    }

    function test_cart_skipsAuctionsUnlistedBurnedOwnAndRepeatedItems() public {
        uint256 auctioned = _mintAuction(alice);
        uint256 unlisted = _mintNotForSale(alice);
        uint256 burned = _mintNotForSale(alice);
        vm.prank(alice);
        market.burn(burned);
        uint256 own = _mintFixed(bob, 1 ether);
        uint256 good = _mintFixed(alice, 1 ether);
        uint256[] memory ids = new uint256[](6);
        (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]) = (auctioned, unlisted, burned, own, good, good);
        uint256[] memory seen = new uint256[](6);
        for (uint256 i = 0; i < 6; ++i) {
            seen[i] = 10 ether;
        }
        uint256 bobBefore = bob.balance;

        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(auctioned, bob, 10 ether, 10 ether); // the buy-now price: use buyToken
        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(unlisted, bob, 10 ether, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(burned, bob, 10 ether, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(own, bob, 10 ether, 1 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartItemSkipped(good, bob, 10 ether, 0); // the second time: already bought
        vm.expectEmit(true, true, true, true, address(market));
        emit CartPurchased(bob, 6, 1, 1 ether, 59 ether);
        _buy(bob, ids, seen, 60 ether);

        assertEq(bobBefore - bob.balance, 1 ether);
        assertEq(market.ownerOf(good), bob);
        assertEq(address(market).balance, 0);
    }

    function test_cart_allSkipped_refundsEverything() public {
        uint256 a = _mintFixed(alice, 5 ether);
        uint256 bobBefore = bob.balance;
        vm.expectEmit(true, true, true, true, address(market));
        emit CartPurchased(bob, 1, 0, 0, 1 ether);
        uint256[] memory ids = new uint256[](1);
        ids[0] = a;
        uint256[] memory seen = new uint256[](1);
        seen[0] = 1 ether;
        _buy(bob, ids, seen, 1 ether);
        assertEq(bob.balance, bobBefore);
        assertEq(market.ownerOf(a), alice);
    }

    function test_cart_reverts_onAWrongValue_orAMalformedCart() public {
        uint256 a = _mintFixed(alice, 1 ether);
        uint256 b = _mintFixed(alice, 2 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, 3 ether, 2 ether));
        _buy(bob, _cart(a, b), _cart(1 ether, 2 ether), 2 ether);
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceWrongValue.selector, 3 ether, 4 ether));
        _buy(bob, _cart(a, b), _cart(1 ether, 2 ether), 4 ether);

        vm.expectRevert(Marketplace.MarketplaceInvalidCart.selector);
        _buy(bob, new uint256[](0), new uint256[](0), 0);
        vm.expectRevert(Marketplace.MarketplaceInvalidCart.selector);
        _buy(bob, _cart(a, b), _cart(1 ether, 2 ether, 0), 3 ether);
        uint256[] memory tooMany = new uint256[](21);
        vm.expectRevert(Marketplace.MarketplaceInvalidCart.selector);
        _buy(bob, tooMany, new uint256[](21), 0);
        assertEq(market.ownerOf(a), alice);
    }

    function test_cart_ofTwentyItems_isAllowed() public {
        uint256[] memory ids = new uint256[](20);
        uint256[] memory seen = new uint256[](20);
        for (uint256 i = 0; i < 20; ++i) {
            ids[i] = _mintFixed(i % 2 == 0 ? alice : carol, 1 ether + i);
            seen[i] = 1 ether + i;
        }
        _buy(bob, ids, seen, 20 ether + 190);
        for (uint256 i = 0; i < 20; ++i) {
            assertEq(market.ownerOf(ids[i]), bob);
        }
        assertEq(address(market).balance, 0);
    }

    /// Each item pays the fee snapshotted by its own listing.
    function test_cart_eachItemPaysItsListingsFee() public {
        uint256 a = _mintFixed(alice, 1 ether); // 5%
        vm.prank(admin);
        market.setServiceFeeBps(1_000);
        uint256 b = _mintFixed(alice, 1 ether); // 10%
        vm.prank(admin);
        market.setServiceFeeBps(0);
        _buy(bob, _cart(a, b), _cart(1 ether, 1 ether), 2 ether);
        assertEq(admin.balance, 0.05 ether + 0.1 ether);
    }

    /// A buyer that refuses ether: the unspent part becomes its credit.
    function test_cart_refundToABuyerThatRefusesEther_becomesCredit() public {
        RevertingReceiver buyer = new RevertingReceiver(market);
        vm.deal(address(buyer), 10 ether);
        uint256 a = _mintFixed(alice, 1 ether);
        uint256 b = _mintFixed(alice, 2 ether);
        vm.prank(alice);
        market.changeTokenPrice(b, 3 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit CartPurchased(address(buyer), 2, 1, 1 ether, 2 ether);
        vm.expectEmit(true, true, true, true, address(market));
        emit Credited(address(buyer), 2 ether);
        buyer.act(abi.encodeCall(Marketplace.buyTokens, (_cart(a, b), _cart(1 ether, 2 ether))), 3 ether);
        assertEq(market.ownerOf(a), address(buyer));
        assertEq(market.creditsOf(address(buyer)), 2 ether);
        _assertBalanceIsOwed();
    }

    /// Hostile payees (a gas-burning royalty receiver, a reverting seller) never block a cart: their
    /// summed shares become credits.
    function test_cart_withHostilePayees_completesAndCreditsThem() public {
        GasBurner burner = new GasBurner(market);
        RevertingReceiver reverter = new RevertingReceiver(market);
        (address[] memory receivers, uint96[] memory bps) = _one(address(burner), 1_000);
        uint256[] memory ids = new uint256[](2);
        for (uint256 i = 0; i < 2; ++i) {
            bytes memory minted = reverter.act(
                abi.encodeCall(Marketplace.mint, (URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether)), 0
            );
            ids[i] = abi.decode(minted, (uint256));
        }
        _buy(bob, ids, _cart(1 ether, 1 ether), 2 ether);
        assertEq(market.creditsOf(address(burner)), 0.2 ether, "two royalties, one credit");
        assertEq(market.creditsOf(address(reverter)), 1.7 ether, "two proceeds, one credit");
        assertEq(admin.balance, 0.1 ether);
        _assertBalanceIsOwed();
    }

    /// A contract buyer without onERC721Received: the whole cart reverts (as buyToken does).
    function test_cart_contractBuyerWithoutReceiver_reverts() public {
        NoReceiver buyer = new NoReceiver();
        vm.deal(address(buyer), 10 ether);
        uint256 a = _mintFixed(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InvalidReceiver.selector, address(buyer)));
        uint256[] memory ids = new uint256[](1);
        ids[0] = a;
        uint256[] memory seen = new uint256[](1);
        seen[0] = 1 ether;
        buyer.buyCart{value: 1 ether}(market, ids, seen);
        assertEq(market.ownerOf(a), alice);
    }

    /// Random prices, seen prices and repricings: the buyer pays exactly the prices of the items it
    /// got, each no more than seen, gets the rest back, and the market keeps nothing.
    function testFuzz_cart_paysWhatItBuys_refundsTheRest(uint256[5] memory prices, uint256[5] memory seen) public {
        uint256[] memory ids = new uint256[](5);
        uint256[] memory seenPrices = new uint256[](5);
        uint256 value;
        uint256 expectedSpent;
        for (uint256 i = 0; i < 5; ++i) {
            prices[i] = bound(prices[i], 1, 100 ether);
            seenPrices[i] = bound(seen[i], 0, 100 ether);
            ids[i] = _mintFixed(i % 2 == 0 ? alice : carol, prices[i]);
            value += seenPrices[i];
            if (prices[i] <= seenPrices[i]) expectedSpent += prices[i];
        }
        uint256 bobBefore = bob.balance;
        uint256 sellersBefore = alice.balance + carol.balance;
        _buy(bob, ids, seenPrices, value);
        assertEq(bobBefore - bob.balance, expectedSpent, "spent");
        for (uint256 i = 0; i < 5; ++i) {
            assertEq(market.ownerOf(ids[i]), prices[i] <= seenPrices[i] ? bob : (i % 2 == 0 ? alice : carol));
        }
        uint256 paidOut = alice.balance + carol.balance - sellersBefore + admin.balance + royaltyA.balance + royaltyB.balance;
        assertEq(paidOut, expectedSpent, "every wei spent is paid out");
        assertEq(address(market).balance, 0);
    }
}
