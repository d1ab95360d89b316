// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MarketplaceTestBase} from "./Base.t.sol";
import {Marketplace, RoyaltySplit, RoyaltySplitFactory} from "../src/Marketplace.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @notice Another ERC-2981 marketplace: it pays royaltyInfo's receiver with `transfer` (2,300 gas,
/// as older markets do) and the seller the rest. It knows nothing of this market's two receivers.
contract OtherMarket {
    function buy(address collection, uint256 tokenId, address payable seller) external payable {
        (address receiver, uint256 royalty) = IERC2981(collection).royaltyInfo(tokenId, msg.value);
        payable(receiver).transfer(royalty);
        seller.transfer(msg.value - royalty);
        IERC721(collection).transferFrom(seller, msg.sender, tokenId);
    }
}

/// @notice A receiver that refuses ether.
contract Refuser {
    receive() external payable {
        revert("no ether");
    }

    function releaseTo(RoyaltySplit split, address payable recipient) external {
        split.releaseTo(recipient);
    }
}

/// @notice ERC-2981 with two receivers: royaltyInfo names their RoyaltySplit, and each receiver takes
/// its share of what any marketplace paid there.
contract RoyaltySplitTest is MarketplaceTestBase {
    OtherMarket internal other;
    RoyaltySplitFactory internal factory;

    function setUp() public override {
        super.setUp();
        other = new OtherMarket();
        factory = RoyaltySplitFactory(market.royaltySplitFactory());
    }

    function _sellElsewhere(uint256 tokenId, address seller, address buyer, uint256 price) internal {
        vm.prank(seller);
        market.approve(address(other), tokenId);
        vm.prank(buyer);
        other.buy{value: price}(address(market), tokenId, payable(seller));
    }

    function test_factory_isTheMarketsFirstCreation_andSplitsAreDeterministic() public view {
        address expected =
            address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xd6), bytes1(0x94), address(market), bytes1(0x01))))));
        assertEq(market.royaltySplitFactory(), expected);
        assertTrue(address(factory).code.length > 0);
    }

    function test_royaltyInfo_oneReceiver_isThatReceiver_noReceiver_isZero() public {
        (address[] memory receivers, uint96[] memory bps) = _one(royaltyA, 700);
        vm.prank(alice);
        uint256 tokenId = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        (address receiver, uint256 amount) = market.royaltyInfo(tokenId, 1 ether);
        assertEq(receiver, royaltyA);
        assertEq(amount, 0.07 ether);
        assertEq(market.royaltySplitOf(tokenId), address(0));
        (receivers, bps) = _none();
        vm.prank(alice);
        tokenId = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        (receiver, amount) = market.royaltyInfo(tokenId, 1 ether);
        assertEq(receiver, address(0));
        assertEq(amount, 0);
    }

    function test_sameReceiversAndShares_shareOneSplit_otherSetsDoNot() public {
        uint256 a = _mintNotForSale(alice);
        uint256 b = _mintNotForSale(bob);
        assertEq(market.royaltySplitOf(a), market.royaltySplitOf(b));
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 1_000, royaltyB, 251);
        vm.prank(alice);
        uint256 c = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        assertTrue(market.royaltySplitOf(c) != market.royaltySplitOf(a));
        assertEq(market.royaltySplitOf(a), factory.splitOf(royaltyA, 1_000, royaltyB, 250));
    }

    /// The issue's case: another marketplace pays royaltyInfo's receiver once; both receivers get their
    /// share (10% and 2.5% of 1 ether: 0.1 and 0.025 ether). The payment arrives before the split's
    /// code exists (a mint does not create it), and is counted once it is created.
    function test_otherMarketplace_paysBothReceivers() public {
        uint256 tokenId = _mintNotForSale(alice);
        address split = market.royaltySplitOf(tokenId);
        assertEq(split.code.length, 0, "created when first needed");
        _sellElsewhere(tokenId, alice, bob, 1 ether);
        assertEq(split.balance, 0.125 ether, "the whole royalty went to the split's address");

        assertEq(factory.create(royaltyA, 1_000, royaltyB, 250), split);
        RoyaltySplit s = RoyaltySplit(payable(split));
        assertEq(s.due(royaltyA), 0.1 ether);
        assertEq(s.due(royaltyB), 0.025 ether);
        s.release(royaltyA);
        s.release(royaltyB);
        assertEq(royaltyA.balance, 0.1 ether);
        assertEq(royaltyB.balance, 0.025 ether);
        assertEq(split.balance, 0, "nothing left in the split");

        // A second sale, once the split exists: `transfer`'s 2,300 gas is enough to pay it.
        _sellElsewhere(tokenId, bob, carol, 2 ether);
        s.release(royaltyB);
        s.release(royaltyA);
        assertEq(royaltyA.balance, 0.3 ether);
        assertEq(royaltyB.balance, 0.075 ether);
        assertEq(split.balance, 0);
        assertEq(s.totalReleased(), 0.375 ether);
    }

    /// Creating again returns the same split and changes nothing.
    function test_create_isIdempotent() public {
        address first = factory.create(royaltyA, 1_000, royaltyB, 250);
        assertEq(factory.create(royaltyA, 1_000, royaltyB, 250), first);
    }

    /// A receiver that refuses ether fails its own release only; the other takes its share, and the
    /// refuser can take its share at another address.
    function test_revertingReceiver_cannotBlockTheOther() public {
        Refuser refuser = new Refuser();
        (address[] memory receivers, uint96[] memory bps) = _two(address(refuser), 600, royaltyB, 400);
        vm.prank(alice);
        uint256 tokenId = market.mint(URI, Marketplace.SaleType.NotForSale, receivers, bps, 0, 0, 0);
        _sellElsewhere(tokenId, alice, bob, 1 ether);
        RoyaltySplit s = RoyaltySplit(payable(factory.create(address(refuser), 600, royaltyB, 400)));

        vm.expectRevert(abi.encodeWithSelector(RoyaltySplit.RoyaltySplitTransferFailed.selector, address(refuser), 0.06 ether));
        s.release(address(refuser));
        s.release(royaltyB);
        assertEq(royaltyB.balance, 0.04 ether);
        assertEq(s.due(address(refuser)), 0.06 ether, "the failed release changed nothing");

        refuser.releaseTo(s, payable(dave));
        assertEq(dave.balance, FUNDS + 0.06 ether);
        assertEq(address(s).balance, 0);
    }

    function test_release_reverts_forAStranger_andWithNothingDue() public {
        RoyaltySplit s = RoyaltySplit(payable(factory.create(royaltyA, 1_000, royaltyB, 250)));
        vm.expectRevert(abi.encodeWithSelector(RoyaltySplit.RoyaltySplitNotReceiver.selector, dave));
        s.release(dave);
        vm.expectRevert(abi.encodeWithSelector(RoyaltySplit.RoyaltySplitNotReceiver.selector, dave));
        vm.prank(dave);
        s.releaseTo(payable(dave));
        vm.expectRevert(abi.encodeWithSelector(RoyaltySplit.RoyaltySplitNothingDue.selector, royaltyA));
        s.release(royaltyA);
        assertEq(s.due(dave), 0);
    }

    /// This market keeps paying each receiver directly (RoyaltyPaid), nothing goes to the split.
    function test_thisMarket_paysReceiversDirectly() public {
        uint256 tokenId = _mintFixed(alice, 1 ether);
        vm.prank(bob);
        market.buyToken{value: 1 ether}(tokenId);
        assertEq(royaltyA.balance, 0.1 ether);
        assertEq(royaltyB.balance, 0.025 ether);
        assertEq(market.royaltySplitOf(tokenId).balance, 0);
    }

    /// Whatever arrives, in any number of payments and releases in any order, the two dues add up to
    /// what is left, each receiver ends with its share (receiver 0 rounded down, receiver 1 the rest),
    /// and nothing stays locked.
    function testFuzz_split_paysEveryWeiInTheRatio(uint96 b0, uint96 b1, uint256[4] memory payments, uint8 order)
        public
    {
        b0 = uint96(bound(b0, 1, 8_999));
        b1 = uint96(bound(b1, 1, 9_000 - b0));
        RoyaltySplit s = RoyaltySplit(payable(factory.create(royaltyA, b0, royaltyB, b1)));
        uint256 total;
        for (uint256 i = 0; i < 4; ++i) {
            uint256 amount = bound(payments[i], 0, 1_000 ether);
            total += amount;
            vm.deal(address(this), amount);
            (bool ok,) = address(s).call{value: amount}("");
            assertTrue(ok);
            assertEq(s.due(royaltyA) + s.due(royaltyB), address(s).balance);
            address first = (order >> i) & 1 == 0 ? royaltyA : royaltyB;
            if (s.due(first) > 0) s.release(first);
        }
        if (s.due(royaltyA) > 0) s.release(royaltyA);
        if (s.due(royaltyB) > 0) s.release(royaltyB);
        assertEq(royaltyA.balance, (total * b0) / (uint256(b0) + b1));
        assertEq(royaltyA.balance + royaltyB.balance, total);
        assertEq(address(s).balance, 0);
    }
}
