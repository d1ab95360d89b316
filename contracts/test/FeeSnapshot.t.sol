// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {Vm} from "./utils/Vm.sol";

/// @notice The service fee is snapshotted when a sale or an auction starts, and the sale pays that fee
/// whatever the admin sets later.
contract FeeSnapshotTest is MarketplaceTestBase {
    function _setFee(uint96 feeBps) internal {
        vm.prank(admin);
        market.setServiceFeeBps(feeBps);
    }

    function test_mint_onSale_snapshotsTheFeeAndEmitsItAfterTheListing() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 1_000, royaltyB, 250);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(1, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0, 0);
        vm.expectEmit(true, true, true, true, address(market));
        emit ServiceFeeSnapshotted(1, 0, 500);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
        assertEq(uint256(market.serviceFeeBpsOf(1)), 500);

        _setFee(300);
        uint64 endTime = uint64(block.timestamp + 1 days);
        vm.expectEmit(true, true, true, true, address(market));
        emit SaleUpdated(2, Marketplace.SaleType.Auction, 10 ether, 1 ether, endTime, 1);
        vm.expectEmit(true, true, true, true, address(market));
        emit ServiceFeeSnapshotted(2, 1, 300);
        vm.prank(alice);
        market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, endTime, 1 ether, 10 ether);
        assertEq(uint256(market.serviceFeeBpsOf(2)), 300);
    }

    function test_mint_notForSale_snapshotsNothing() public {
        vm.recordLogs();
        uint256 tokenId = _mintNotForSale(alice);
        assertEq(_count(vm.getRecordedLogs(), ServiceFeeSnapshotted.selector), 0);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 0);
    }

    function test_serviceFeeBpsOf_unknownToken_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(Marketplace.MarketplaceNonexistentToken.selector, 7));
        market.serviceFeeBpsOf(7);
    }

    function test_buyToken_afterAFeeRaise_paysTheFeeOfTheListing() public {
        uint256 tokenId = _mintFixed(alice, 2 ether);
        _setFee(1_000);
        uint256 aliceBefore = alice.balance;
        uint256 fee = 0.1 ether; // 5% of 2 ether, not 10%
        uint256 royalties = 0.25 ether; // 10% + 2.5%
        vm.expectEmit(true, true, true, true, address(market));
        emit Sold(tokenId, 0, bob, alice, 2 ether, fee, royalties, 2 ether - fee - royalties);
        vm.prank(bob);
        market.buyToken{value: 2 ether}(tokenId);
        assertEq(admin.balance, fee);
        assertEq(alice.balance - aliceBefore, 2 ether - fee - royalties);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 0, "no sale, no snapshot");
    }

    function test_buyToken_afterAFeeCut_paysTheFeeOfTheListing() public {
        uint256 tokenId = _mintFixed(alice, 2 ether);
        _setFee(0);
        vm.prank(bob);
        market.buyToken{value: 2 ether}(tokenId);
        assertEq(admin.balance, 0.1 ether, "the terms the sale started with");
    }

    function test_settleAuction_afterAFeeRaise_paysTheFeeOfTheAuction() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        _setFee(1_000);
        vm.warp(_endOf(tokenId));
        market.settleAuction(tokenId);
        assertEq(admin.balance, 0.2 ether);
    }

    function test_acceptOffer_afterAFeeRaise_paysTheFeeOfTheAuction() public {
        uint256 tokenId = _mintAuction(alice);
        _setFee(800);
        _bid(bob, tokenId, 4 ether);
        vm.prank(alice);
        market.acceptOffer(tokenId, true);
        assertEq(admin.balance, 0.2 ether);
    }

    function test_buyNow_afterAFeeRaise_paysTheFeeOfTheAuction() public {
        uint256 tokenId = _mintAuction(alice);
        _bid(bob, tokenId, 4 ether);
        _setFee(1_000);
        vm.prank(carol);
        market.buyToken{value: 10 ether}(tokenId);
        assertEq(admin.balance, 0.5 ether);
    }

    function test_changeTokenPrice_keepsTheSnapshot() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _setFee(1_000);
        vm.prank(alice);
        market.changeTokenPrice(tokenId, 2 ether);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 500);
        vm.prank(bob);
        market.buyToken{value: 2 ether}(tokenId);
        assertEq(admin.balance, 0.1 ether);
    }

    function test_toggleForSale_aNewSale_takesTheFeeOfItsStart() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        _setFee(1_000);
        uint64 endTime = uint64(block.timestamp + 1 days);
        vm.expectEmit(true, true, true, true, address(market));
        emit ServiceFeeSnapshotted(tokenId, 1, 1_000);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.Auction, 10 ether, endTime, 1 ether);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 1_000);

        _setFee(200);
        vm.expectEmit(true, true, true, true, address(market));
        emit ServiceFeeSnapshotted(tokenId, 0, 200);
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 3 ether, 0, 0);
        vm.prank(bob);
        market.buyToken{value: 3 ether}(tokenId);
        assertEq(admin.balance, 0.06 ether);
    }

    function test_stoppingOrTransferring_clearsTheSnapshot() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.recordLogs();
        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0);
        assertEq(_count(vm.getRecordedLogs(), ServiceFeeSnapshotted.selector), 0, "stopping starts no sale");
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 0);

        vm.prank(alice);
        market.toggleForSale(tokenId, Marketplace.SaleType.FixedPrice, 1 ether, 0, 0);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 500);
        vm.prank(alice);
        market.transferFrom(alice, dave, tokenId);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 0);
    }

    function test_closeAuction_clearsTheSnapshot() public {
        uint256 tokenId = _mintAuction(alice);
        vm.warp(_endOf(tokenId));
        vm.prank(alice);
        market.closeAuction(tokenId);
        assertEq(uint256(market.serviceFeeBpsOf(tokenId)), 0);
    }

    /// Whatever the fee does after a sale starts, the sale pays the fee of its start, exactly.
    function testFuzz_feeChangesAfterTheStart_neverChangeTheSalesFee(
        uint96 feeAtStart,
        uint96 feeAtSale,
        uint256 price,
        bool auction
    ) public {
        feeAtStart = uint96(bound(feeAtStart, 0, 1_000));
        feeAtSale = uint96(bound(feeAtSale, 0, 1_000));
        price = bound(price, 2, 1e28); // below MAX_PRICE (2**96 - 1)
        _setFee(feeAtStart);
        uint256 tokenId;
        if (auction) {
            tokenId = _mint(alice, Marketplace.SaleType.Auction, uint64(block.timestamp + 1 days), 1, price);
        } else {
            tokenId = _mintFixed(alice, price);
        }
        _setFee(feeAtSale);
        vm.deal(bob, price);
        vm.recordLogs();
        vm.prank(bob);
        market.buyToken{value: price}(tokenId);
        assertEq(admin.balance, (price * feeAtStart) / 10_000, "the fee of the start");
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].topics[0] != Sold.selector) continue;
            (, uint256 paidPrice, uint256 fee, uint256 royalties, uint256 proceeds) =
                abi.decode(logs[i].data, (address, uint256, uint256, uint256, uint256));
            assertEq(fee, (price * feeAtStart) / 10_000, "Sold.fee");
            assertEq(fee + royalties + proceeds, paidPrice, "split == price");
        }
        assertEq(address(market).balance, 0, "nothing left behind");
    }
}
