// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "./utils/Test.sol";
import {Vm} from "./utils/Vm.sol";
import {Marketplace} from "../src/Marketplace.sol";

/// @notice Shared set-up: a market deployed by `admin`, funded users, and helpers to mint and trade.
abstract contract MarketplaceTestBase is Test {
    Marketplace internal market;

    address internal admin;
    address internal alice; // creator / seller
    address internal bob; // buyer / bidder
    address internal carol; // buyer / bidder
    address internal dave; // stranger
    address internal royaltyA;
    address internal royaltyB;

    uint256 internal constant START = 1_700_000_000;
    uint256 internal constant FUNDS = 1_000_000 ether;
    string internal constant URI = "ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy";

    // The events, re-declared for vm.expectEmit.
    event Minted(
        uint256 indexed tokenId, address indexed creator, string tokenURI, address[] royaltyReceivers, uint96[] royaltyBps
    );
    event SaleUpdated(
        uint256 indexed tokenId,
        Marketplace.SaleType saleType,
        uint256 price,
        uint256 basePrice,
        uint64 endTime,
        uint256 indexed auctionId
    );
    event PriceChanged(uint256 indexed tokenId, uint256 price);
    event BidPlaced(
        uint256 indexed tokenId, uint256 indexed auctionId, address indexed bidder, uint256 amount, uint64 endTime
    );
    event BidRefunded(uint256 indexed tokenId, uint256 indexed auctionId, address indexed bidder, uint256 amount);
    event BidRejected(uint256 indexed tokenId, uint256 indexed auctionId, address indexed bidder, uint256 amount);
    event AuctionEnded(uint256 indexed tokenId, uint256 indexed auctionId, address indexed winner, uint256 amount);
    event AuctionExtended(uint256 indexed tokenId, uint256 indexed auctionId, uint64 endTime);
    event Sold(
        uint256 indexed tokenId,
        uint256 indexed auctionId,
        address indexed buyer,
        address seller,
        uint256 price,
        uint256 fee,
        uint256 royalties,
        uint256 sellerProceeds
    );
    event RoyaltyPaid(uint256 indexed tokenId, address indexed receiver, uint256 amount);
    event Credited(address indexed account, uint256 amount);
    event CreditsWithdrawn(address indexed account, uint256 amount);
    event ServiceFeeChanged(uint96 feeBps);
    event ServiceFeeSnapshotted(uint256 indexed tokenId, uint256 indexed auctionId, uint96 feeBps);
    event AdminProposed(address indexed pendingAdmin);
    event AdminChanged(address indexed admin);
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event OfferMade(
        uint256 indexed tokenId,
        address indexed offerer,
        uint256 amount,
        uint64 expiresAt,
        uint96 feeBps,
        uint256 replacedAmount
    );
    event OfferCancelled(uint256 indexed tokenId, address indexed offerer, uint256 amount);
    event OfferRejected(uint256 indexed tokenId, address indexed offerer, uint256 amount);
    event OfferAccepted(uint256 indexed tokenId, address indexed offerer, address indexed seller, uint256 amount);
    event CartItemSkipped(uint256 indexed tokenId, address indexed buyer, uint256 seenPrice, uint256 price);
    event CartPurchased(address indexed buyer, uint256 items, uint256 bought, uint256 spent, uint256 refunded);

    function setUp() public virtual {
        vm.warp(START);
        admin = makeAddr("admin");
        alice = makeAddr("alice");
        bob = makeAddr("bob");
        carol = makeAddr("carol");
        dave = makeAddr("dave");
        royaltyA = makeAddr("royaltyA");
        royaltyB = makeAddr("royaltyB");
        vm.deal(alice, FUNDS);
        vm.deal(bob, FUNDS);
        vm.deal(carol, FUNDS);
        vm.deal(dave, FUNDS);
        vm.prank(admin);
        market = new Marketplace();
    }

    // ---- royalties ---------------------------------------------------------------------------

    function _none() internal pure returns (address[] memory receivers, uint96[] memory bps) {
        receivers = new address[](0);
        bps = new uint96[](0);
    }

    function _one(address receiver, uint96 share) internal pure returns (address[] memory receivers, uint96[] memory bps) {
        receivers = new address[](1);
        bps = new uint96[](1);
        receivers[0] = receiver;
        bps[0] = share;
    }

    function _two(address r0, uint96 b0, address r1, uint96 b1)
        internal
        pure
        returns (address[] memory receivers, uint96[] memory bps)
    {
        receivers = new address[](2);
        bps = new uint96[](2);
        receivers[0] = r0;
        bps[0] = b0;
        receivers[1] = r1;
        bps[1] = b1;
    }

    // ---- admin -------------------------------------------------------------------------------

    /// @dev Hands the admin role to `newAdmin` in the two steps (propose, accept).
    function _handOverAdmin(address newAdmin) internal {
        vm.prank(market.admin());
        market.proposeAdmin(newAdmin);
        vm.prank(newAdmin);
        market.acceptAdmin();
    }

    /// @dev How many logs of `topic0` the market emitted in `logs`.
    function _count(Vm.Log[] memory logs, bytes32 topic0) internal view returns (uint256 n) {
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].emitter == address(market) && logs[i].topics[0] == topic0) n += 1;
        }
    }

    // ---- minting -----------------------------------------------------------------------------

    /// @dev Mints to `creator` with royalties 10% to royaltyA and 2.5% to royaltyB.
    function _mint(address creator, Marketplace.SaleType saleType, uint64 endTime, uint256 basePrice, uint256 price)
        internal
        returns (uint256 tokenId)
    {
        (address[] memory receivers, uint96[] memory bps) = _two(royaltyA, 1_000, royaltyB, 250);
        vm.prank(creator);
        tokenId = market.mint(URI, saleType, receivers, bps, endTime, basePrice, price);
    }

    function _mintNotForSale(address creator) internal returns (uint256) {
        return _mint(creator, Marketplace.SaleType.NotForSale, 0, 0, 0);
    }

    function _mintFixed(address creator, uint256 price) internal returns (uint256) {
        return _mint(creator, Marketplace.SaleType.FixedPrice, 0, 0, price);
    }

    /// @dev An auction of one day, base 1 ether, buy-now 10 ether.
    function _mintAuction(address creator) internal returns (uint256) {
        return _mint(creator, Marketplace.SaleType.Auction, uint64(block.timestamp + 1 days), 1 ether, 10 ether);
    }

    function _offer(address offerer, uint256 tokenId, uint256 amount, uint256 expiresAt) internal {
        vm.prank(offerer);
        market.makeOffer{value: amount}(tokenId, uint64(expiresAt));
    }

    /// @dev The invariant every test can check: the market holds exactly what it owes.
    function _assertBalanceIsOwed() internal view {
        assertEq(
            address(market).balance,
            market.totalEscrowed() + market.totalOffers() + market.totalCredits(),
            "balance == escrowed bids + offers + credits"
        );
    }

    function _bid(address bidder, uint256 tokenId, uint256 amount) internal {
        vm.prank(bidder);
        market.bid{value: amount}(tokenId);
    }

    function _auction(uint256 tokenId) internal view returns (Marketplace.AuctionInfo memory) {
        return market.auctionInfo(tokenId);
    }

    function _token(uint256 tokenId) internal view returns (Marketplace.TokenInfo memory) {
        return market.tokenInfo(tokenId);
    }

    function _endOf(uint256 tokenId) internal view returns (uint256) {
        return market.auctionInfo(tokenId).endTime;
    }

    /// @dev The split of a sale of `tokenId` (royalties 10% + 2.5%) at `price` with the current fee.
    function _split(uint256 price)
        internal
        view
        returns (uint256 fee, uint256 royalty0, uint256 royalty1, uint256 proceeds)
    {
        fee = (price * market.serviceFeeBps()) / 10_000;
        royalty0 = (price * 1_000) / 10_000;
        royalty1 = (price * 250) / 10_000;
        proceeds = price - fee - royalty0 - royalty1;
    }
}
