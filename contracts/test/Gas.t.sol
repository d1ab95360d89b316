// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace} from "../src/Marketplace.sol";
import {console} from "./utils/console.sol";

/// @notice Prints the gas of the main operations (run `forge test --match-contract GasReportTest -vv`),
/// measured around each call in a test (cold storage for the first touch, as in a real transaction),
/// and checks each stays under a generous ceiling so a regression shows up. `forge test --gas-report`
/// prints the per-function table.
contract GasReportTest is MarketplaceTestBase {
    function _measure(string memory label, uint256 gasBefore, uint256 ceiling) internal view {
        uint256 used = gasBefore - gasleft();
        console.log(label, used);
        assertLt(used, ceiling, label);
    }

    function test_gas_mainOperations() public {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 1_000, royaltyB, 250);

        vm.prank(alice);
        uint256 g = gasleft();
        uint256 fixedId = market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
        _measure("mint (fixed price, 2 royalties)", g, 400_000);

        vm.prank(alice);
        g = gasleft();
        uint256 auctionId =
            market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, uint64(block.timestamp + 1 days), 1 ether, 10 ether);
        _measure("mint (auction, 2 royalties)", g, 450_000);

        vm.prank(bob);
        g = gasleft();
        market.buyToken{value: 1 ether}(fixedId);
        _measure("buyToken (fixed, 2 royalties + fee + seller)", g, 250_000);

        vm.prank(bob);
        g = gasleft();
        market.bid{value: 1 ether}(auctionId);
        _measure("bid (first)", g, 150_000);

        vm.prank(carol);
        g = gasleft();
        market.bid{value: 2 ether}(auctionId);
        _measure("bid (outbid + refund)", g, 150_000);

        vm.prank(alice);
        g = gasleft();
        market.acceptOffer(auctionId, true);
        _measure("acceptOffer (accept)", g, 250_000);

        vm.prank(alice);
        uint256 second =
            market.mint(URI, Marketplace.SaleType.Auction, receivers, bps, uint64(block.timestamp + 1 hours), 1 ether, 10 ether);
        vm.prank(bob);
        market.bid{value: 3 ether}(second);
        vm.warp(block.timestamp + 2 hours);
        g = gasleft();
        market.settleAuction(second);
        _measure("settleAuction", g, 250_000);

        vm.prank(alice);
        uint256 offered = market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
        vm.prank(bob);
        g = gasleft();
        market.makeOffer{value: 1 ether}(offered, uint64(block.timestamp + 1 days));
        _measure("makeOffer", g, 100_000);
        vm.prank(alice);
        g = gasleft();
        market.acceptOfferFrom(offered, bob, 1 ether, 0);
        _measure("acceptOfferFrom (clears the listing)", g, 250_000);

        uint256[] memory ids = new uint256[](3);
        uint256[] memory prices = new uint256[](3);
        for (uint256 i = 0; i < 3; ++i) {
            vm.prank(alice);
            ids[i] = market.mint(URI, Marketplace.SaleType.FixedPrice, receivers, bps, 0, 0, 1 ether);
            prices[i] = 1 ether;
        }
        vm.prank(carol);
        g = gasleft();
        market.buyTokens{value: 3 ether}(ids, prices);
        _measure("buyTokens (3 items, one seller)", g, 450_000);
    }
}
