// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "../utils/Test.sol";
import {Vm} from "../utils/Vm.sol";
import {Marketplace} from "../../src/Marketplace.sol";
import {Actor, GasBurner, GasHungryReceiver, Reentrant, RevertingReceiver} from "../helpers/Receivers.sol";

/// @notice Drives the market with random but mostly valid actions from honest and hostile actors, and
/// keeps ghost records: every bid and how it ended, every sale's split, the end times, and a shadow
/// of the market rebuilt from the events alone (as the project's indexer does).
contract Handler is Test {
    Marketplace public immutable market;

    address[] internal _actors;
    mapping(address => bool) internal _isContract;
    mapping(address => bool) internal _cannotTakeEther;
    Reentrant public immutable reentrant;
    address public immutable beneficiary; // where actors that cannot take ether withdraw to
    /// @dev Holds and releases sales (the test's set-up grants it the role); never an actor, so it
    /// never owns a token.
    address public immutable moderator;

    uint256 public constant MAX_PRICE = 100 ether;
    uint256 public constant ACTOR_FUNDS = 1_000_000 ether;

    // ---- ghosts -------------------------------------------------------------------------------

    struct BidRecord {
        uint256 auctionId;
        address bidder;
        uint256 amount;
        uint8 status; // 0 open, 1 refunded (outbid, rejected, stopped, bought out, cleared), 2 won
    }

    BidRecord[] internal _bids;
    mapping(uint256 auctionId => uint256[]) internal _bidsOf;
    mapping(uint256 auctionId => uint256) public ghostWins;
    mapping(uint256 auctionId => uint64) internal _lastEnd;

    uint256 public ghostSales;
    uint256 public ghostSplitMismatches;
    uint256 public ghostRoyaltyMismatches;
    uint256 public ghostUnmatchedBidCloses;
    uint256 public ghostEndTimeDecreases;
    uint256 public ghostListingAfterTransfer;
    uint256 public ghostTransfers;
    uint256 public ghostBurns;
    uint256 public ghostCreditsCreated;
    uint256 public ghostWithdrawals;
    uint256 public ghostFailedCalls;
    uint256 public ghostSnapshotMismatches; // a sale started without a snapshot of the fee of that moment
    uint256 public ghostSelfPayeeAccepted; // the market itself accepted as royalty receiver or admin
    uint256 public ghostWrongAdminAccepted; // someone other than the proposed admin took the role
    uint256 public ghostMissedExtensions; // a late rejection that did not extend the end as a late bid does
    uint256 public ghostLateRejections;
    uint256 public ghostExtendedByRejection;
    uint256 public ghostOfferMismatches; // an offer event that does not match the offer it closes or replaces
    uint256 public ghostBadAccepts; // an accept that succeeded although expired or naming a changed amount
    uint256 public ghostOffersAccepted;
    uint256 public ghostCartMismatches; // a cart whose spent + refunded != msg.value, or whose items do not add up
    uint256 public ghostCartItemsBought;
    uint256 public ghostCartItemsSkipped;
    uint256 public ghostOffersReplaced;
    /// @dev Offers refunded because their offerer got the token (OfferCancelled with the offerer owning it).
    uint256 public ghostOffersRefundedOnTransfer;
    /// @dev A sale, bid, listing or offer of a token while its sale was held (from the events).
    uint256 public ghostTradesWhileHeld;
    /// @dev A hold accepted beyond its limit (7 days without evidence, 90 days with).
    uint256 public ghostHoldsBeyondLimit;
    uint256 public ghostHolds;
    mapping(bytes32 => uint256) public calls;
    mapping(bytes32 => uint256) public okCalls;

    // ---- the shadow market, rebuilt from events ----------------------------------------------

    struct ShadowToken {
        address owner;
        Marketplace.SaleType saleType;
        uint256 price;
        uint256 auctionId;
        uint96 feeBps; // the current sale's snapshot, 0 when not for sale
    }

    struct ShadowAuction {
        uint64 endTime;
        address topBidder;
        uint256 topBid;
        bool ended;
    }

    mapping(uint256 tokenId => ShadowToken) public shadowToken;
    mapping(uint256 auctionId => ShadowAuction) public shadowAuction;
    mapping(address account => uint256) public shadowCredits;
    address public shadowAdmin;
    address public shadowPendingAdmin;
    uint96 public shadowFeeBps;
    /// @dev The fee snapshot of each token's last sale start: a sale clears the shadow token's own
    /// snapshot (its SaleUpdated(NotForSale) comes before its Sold) before Sold is folded.
    mapping(uint256 tokenId => uint96) internal _startFeeBps;
    /// @dev Each token's hold end, from SaleHeld / SaleReleased.
    mapping(uint256 tokenId => uint64) public shadowHeldUntil;

    struct ShadowOffer {
        uint256 amount;
        uint64 expiresAt;
        uint96 feeBps;
    }

    /// @dev Offers rebuilt from OfferMade / OfferCancelled / OfferRejected / OfferAccepted.
    mapping(uint256 tokenId => mapping(address offerer => ShadowOffer)) public shadowOffer;
    /// @dev Every (token, offerer) pair that ever had an offer, to look offers up and sum them.
    uint256[] internal _offerTokens;
    address[] internal _offerers;
    mapping(bytes32 => bool) internal _offerKnown;

    bytes32 internal constant T_TRANSFER = keccak256("Transfer(address,address,uint256)");
    bytes32 internal constant T_SALE_UPDATED = keccak256("SaleUpdated(uint256,uint8,uint256,uint256,uint64,uint256)");
    bytes32 internal constant T_PRICE_CHANGED = keccak256("PriceChanged(uint256,uint256)");
    bytes32 internal constant T_BID_PLACED = keccak256("BidPlaced(uint256,uint256,address,uint256,uint64)");
    bytes32 internal constant T_BID_REFUNDED = keccak256("BidRefunded(uint256,uint256,address,uint256)");
    bytes32 internal constant T_BID_REJECTED = keccak256("BidRejected(uint256,uint256,address,uint256)");
    bytes32 internal constant T_AUCTION_ENDED = keccak256("AuctionEnded(uint256,uint256,address,uint256)");
    bytes32 internal constant T_AUCTION_EXTENDED = keccak256("AuctionExtended(uint256,uint256,uint64)");
    bytes32 internal constant T_FEE_SNAPSHOT = keccak256("ServiceFeeSnapshotted(uint256,uint256,uint96)");
    bytes32 internal constant T_ADMIN_PROPOSED = keccak256("AdminProposed(address)");
    bytes32 internal constant T_SOLD = keccak256("Sold(uint256,uint256,address,address,uint256,uint256,uint256,uint256)");
    bytes32 internal constant T_ROYALTY_PAID = keccak256("RoyaltyPaid(uint256,address,uint256)");
    bytes32 internal constant T_CREDITED = keccak256("Credited(address,uint256)");
    bytes32 internal constant T_WITHDRAWN = keccak256("CreditsWithdrawn(address,uint256)");
    bytes32 internal constant T_FEE = keccak256("ServiceFeeChanged(uint96)");
    bytes32 internal constant T_ADMIN = keccak256("AdminChanged(address)");
    bytes32 internal constant T_OFFER_MADE = keccak256("OfferMade(uint256,address,uint256,uint64,uint96,uint256)");
    bytes32 internal constant T_OFFER_CANCELLED = keccak256("OfferCancelled(uint256,address,uint256)");
    bytes32 internal constant T_OFFER_REJECTED = keccak256("OfferRejected(uint256,address,uint256)");
    bytes32 internal constant T_OFFER_ACCEPTED = keccak256("OfferAccepted(uint256,address,address,uint256)");
    bytes32 internal constant T_CART_SKIPPED = keccak256("CartItemSkipped(uint256,address,uint256,uint256)");
    bytes32 internal constant T_CART = keccak256("CartPurchased(address,uint256,uint256,uint256,uint256)");
    bytes32 internal constant T_SALE_HELD = keccak256("SaleHeld(uint256,address,uint64,bytes32)");
    bytes32 internal constant T_SALE_RELEASED = keccak256("SaleReleased(uint256,address)");

    constructor(Marketplace market_, address admin_) {
        market = market_;
        shadowAdmin = admin_;
        shadowFeeBps = market_.serviceFeeBps();

        beneficiary = makeAddr("honest0");
        moderator = makeAddr("moderator");
        _addActor(beneficiary, false, false);
        _addActor(makeAddr("honest1"), false, false);
        _addActor(makeAddr("honest2"), false, false);
        _addActor(address(new RevertingReceiver(market_)), true, true);
        _addActor(address(new GasBurner(market_)), true, true);
        _addActor(address(new GasHungryReceiver(market_)), true, false);
        reentrant = new Reentrant(market_);
        _addActor(address(reentrant), true, false);
        _addActor(admin_, false, false);
    }

    function _addActor(address a, bool isContract_, bool cannotTakeEther) internal {
        _actors.push(a);
        _isContract[a] = isContract_;
        _cannotTakeEther[a] = cannotTakeEther;
        vm.deal(a, ACTOR_FUNDS);
    }

    function actors() external view returns (address[] memory) {
        return _actors;
    }

    function bidCount() external view returns (uint256) {
        return _bids.length;
    }

    function bidAt(uint256 i) external view returns (BidRecord memory) {
        return _bids[i];
    }

    function bidsOf(uint256 auctionId) external view returns (uint256[] memory) {
        return _bidsOf[auctionId];
    }

    function offerKeyCount() external view returns (uint256) {
        return _offerTokens.length;
    }

    function offerKeyAt(uint256 i) external view returns (uint256 tokenId, address offerer) {
        return (_offerTokens[i], _offerers[i]);
    }

    /// @dev The sum of the live offers as the events tell them.
    function shadowOffersTotal() external view returns (uint256 sum) {
        for (uint256 i = 0; i < _offerTokens.length; ++i) {
            sum += shadowOffer[_offerTokens[i]][_offerers[i]].amount;
        }
    }

    // ---- actions ------------------------------------------------------------------------------

    function mint(uint256 actorSeed, uint8 saleSeed, uint256 priceSeed, uint256 durationSeed, uint256 royaltySeed)
        external
    {
        address creator = _actor(actorSeed);
        Marketplace.SaleType saleType = Marketplace.SaleType(saleSeed % 3);
        uint256 price;
        uint256 base;
        uint64 endTime;
        if (saleType == Marketplace.SaleType.FixedPrice) {
            price = bound(priceSeed, 1, MAX_PRICE);
        } else if (saleType == Marketplace.SaleType.Auction) {
            base = bound(priceSeed, 1, MAX_PRICE);
            price = base * 2 + bound(priceSeed >> 128, 1, MAX_PRICE);
            endTime = _endTime(durationSeed);
        }
        uint256 rows = royaltySeed % 3;
        address[] memory receivers = new address[](rows);
        uint96[] memory bps = new uint96[](rows);
        for (uint256 i = 0; i < rows; ++i) {
            receivers[i] = _actors[(royaltySeed / 3 + i) % _actors.length];
            bps[i] = uint96(bound(royaltySeed >> (16 * (i + 1)), 1, 4_500));
        }
        // Now and then the market itself as a receiver: it must be refused.
        bool selfReceiver = rows > 0 && (royaltySeed >> 200) % 16 == 15;
        if (selfReceiver) receivers[rows - 1] = address(market);
        bool ok = _call(
            "mint",
            creator,
            abi.encodeCall(Marketplace.mint, ("ipfs://token", saleType, receivers, bps, endTime, base, price)),
            0
        );
        if (ok && selfReceiver) ghostSelfPayeeAccepted += 1;
    }

    function bid(uint256 actorSeed, uint256 tokenSeed, uint256 raiseSeed) external {
        uint256 tokenId = _pick(tokenSeed, Want.LiveAuction);
        if (tokenId == 0) return;
        address bidder = _nonOwner(actorSeed, tokenId);
        uint256 amount;
        try market.minimumBid(tokenId) returns (uint256 minimum) {
            amount = minimum + bound(raiseSeed, 0, minimum / 2);
        } catch {
            amount = bound(raiseSeed, 1, MAX_PRICE);
        }
        _setReentrantTarget(tokenId);
        _call("bid", bidder, abi.encodeCall(Marketplace.bid, (tokenId)), amount);
    }

    function buy(uint256 actorSeed, uint256 tokenSeed) external {
        uint256 tokenId = _pick(tokenSeed, Want.Listed);
        if (tokenId == 0) return;
        address buyer = _nonOwner(actorSeed, tokenId);
        uint256 price;
        try market.tokenInfo(tokenId) returns (Marketplace.TokenInfo memory info) {
            price = info.price;
        } catch {}
        _setReentrantTarget(_token(tokenSeed >> 8));
        _call("buy", buyer, abi.encodeCall(Marketplace.buyToken, (tokenId)), price);
    }

    function acceptOffer(uint256 tokenSeed, bool accept) external {
        uint256 tokenId = _pick(tokenSeed, Want.AuctionWithBid);
        if (tokenId == 0) return;
        _call("acceptOffer", _owner(tokenId), abi.encodeCall(Marketplace.acceptOffer, (tokenId, accept)), 0);
    }

    /// @dev Rejects a top bid in the auction's last minutes (warping there first), where the rejection
    /// must extend the end as a late bid does.
    function lateReject(uint256 tokenSeed, uint256 secondsSeed) external {
        uint256 tokenId = _pick(tokenSeed, Want.LiveAuctionWithBid);
        if (tokenId == 0) return;
        uint256 endTime;
        try market.auctionInfo(tokenId) returns (Marketplace.AuctionInfo memory info) {
            endTime = info.endTime;
        } catch {}
        uint256 before = bound(secondsSeed, 1, 15 minutes);
        if (endTime > block.timestamp + before) vm.warp(endTime - before);
        if (!_call("lateReject", _owner(tokenId), abi.encodeCall(Marketplace.acceptOffer, (tokenId, false)), 0)) return;
        // A rejection succeeds only before the end.
        if (endTime - block.timestamp < 10 minutes) {
            ghostLateRejections += 1;
            uint256 newEnd = market.auctionInfo(tokenId).endTime;
            if (newEnd != block.timestamp + 10 minutes) ghostMissedExtensions += 1;
            else ghostExtendedByRejection += 1;
        }
    }

    function settle(uint256 actorSeed, uint256 tokenSeed) external {
        uint256 tokenId = _pick(tokenSeed, Want.ExpiredWithBid);
        if (tokenId == 0) return;
        _call("settle", _actor(actorSeed), abi.encodeCall(Marketplace.settleAuction, (tokenId)), 0);
    }

    function closeAuction(uint256 tokenSeed) external {
        uint256 tokenId = _pick(tokenSeed, Want.ExpiredWithoutBid);
        if (tokenId == 0) return;
        _call("closeAuction", _owner(tokenId), abi.encodeCall(Marketplace.closeAuction, (tokenId)), 0);
    }

    function toggleForSale(uint256 tokenSeed, uint8 saleSeed, uint256 priceSeed, uint256 durationSeed) external {
        uint256 tokenId = _token(tokenSeed);
        if (tokenId == 0) return;
        Marketplace.SaleType saleType = Marketplace.SaleType(saleSeed % 3);
        uint256 price;
        uint256 base;
        uint64 endTime;
        if (saleType == Marketplace.SaleType.FixedPrice) {
            price = bound(priceSeed, 1, MAX_PRICE);
        } else if (saleType == Marketplace.SaleType.Auction) {
            base = bound(priceSeed, 1, MAX_PRICE);
            price = base * 3;
            endTime = _endTime(durationSeed);
        }
        _call(
            "toggleForSale",
            _owner(tokenId),
            abi.encodeCall(Marketplace.toggleForSale, (tokenId, saleType, price, endTime, base)),
            0
        );
    }

    function changeTokenPrice(uint256 tokenSeed, uint256 priceSeed) external {
        uint256 tokenId = _pick(tokenSeed, Want.Listed);
        if (tokenId == 0) return;
        uint256 price = bound(priceSeed, 1, MAX_PRICE * 3);
        _call("changeTokenPrice", _owner(tokenId), abi.encodeCall(Marketplace.changeTokenPrice, (tokenId, price)), 0);
    }

    function transfer(uint256 tokenSeed, uint256 toSeed, bool safe) external {
        uint256 tokenId = _token(tokenSeed);
        address to = _actor(toSeed);
        // Half the time, a token with a live offer, to its offerer (the transfer refunds the offer).
        if (toSeed % 2 == 0) {
            (uint256 offered, address offerer) = _pickOffer(toSeed >> 1);
            if (offerer != address(0)) (tokenId, to) = (offered, offerer);
        }
        if (tokenId == 0) return;
        address from = _owner(tokenId);
        if (from == address(0) || to == from) return;
        bytes memory data = safe
            ? abi.encodeWithSignature("safeTransferFrom(address,address,uint256)", from, to, tokenId)
            : abi.encodeCall(Marketplace.transferFrom, (from, to, tokenId));
        if (!_call("transfer", from, data, 0)) return;
        ghostTransfers += 1;
        Marketplace.TokenInfo memory info = market.tokenInfo(tokenId);
        if (info.forSale || info.saleType != Marketplace.SaleType.NotForSale || info.price != 0) {
            ghostListingAfterTransfer += 1;
        }
        if (info.auctionId != 0 && !market.auctionById(info.auctionId).ended) ghostListingAfterTransfer += 1;
    }

    function burn(uint256 tokenSeed) external {
        uint256 tokenId = _token(tokenSeed);
        if (tokenId == 0) return;
        if (!_call("burn", _owner(tokenId), abi.encodeCall(Marketplace.burn, (tokenId)), 0)) return;
        ghostBurns += 1;
    }

    function withdraw(uint256 actorSeed) external {
        address account = _actor(actorSeed);
        if (market.creditsOf(account) == 0) return;
        bytes memory data = _cannotTakeEther[account]
            ? abi.encodeCall(Marketplace.withdrawCreditsTo, (payable(beneficiary)))
            : abi.encodeCall(Marketplace.withdrawCredits, ());
        if (_call("withdraw", account, data, 0)) ghostWithdrawals += 1;
    }

    /// @dev A moderator holds a token's sale (or renews the hold), mostly for less than a day so that
    /// holds end within a run; one call in eight asks for one second beyond the limit, which must fail.
    function hold(uint256 tokenSeed, uint256 secondsSeed, bool withEvidence) external {
        uint256 tokenId = _token(tokenSeed);
        if (tokenId == 0) return;
        uint256 limit = withEvidence ? 90 days : 7 days;
        bool beyond = secondsSeed % 8 == 0;
        uint64 until = uint64(block.timestamp + (beyond ? limit + 1 : bound(secondsSeed >> 3, 1, 1 days)));
        bytes32 evidence = withEvidence ? keccak256(abi.encode("police report", tokenId)) : bytes32(0);
        if (!_call("hold", moderator, abi.encodeCall(Marketplace.holdSale, (tokenId, until, evidence)), 0)) return;
        ghostHolds += 1;
        if (beyond) ghostHoldsBeyondLimit += 1;
    }

    function release(uint256 tokenSeed) external {
        uint256 tokenId = _token(tokenSeed);
        if (tokenId == 0) return;
        _call("release", moderator, abi.encodeCall(Marketplace.releaseSale, (tokenId)), 0);
    }

    function warp(uint256 secondsSeed) external {
        calls["warp"] += 1;
        vm.warp(block.timestamp + bound(secondsSeed, 1, 12 hours));
    }

    function setServiceFee(uint256 feeSeed) external {
        _call(
            "setServiceFee",
            market.admin(),
            abi.encodeCall(Marketplace.setServiceFeeBps, (uint96(bound(feeSeed, 0, 1_000)))),
            0
        );
    }

    /// @dev The admin proposes an actor; 1 in 8 seeds withdraw the proposal (zero), 1 in 8 propose the
    /// market itself (which must be refused).
    function proposeAdmin(uint256 actorSeed) external {
        address proposed = _actor(actorSeed);
        if (actorSeed % 8 == 0) proposed = address(0);
        else if (actorSeed % 8 == 1) proposed = address(market);
        bool ok = _call("proposeAdmin", market.admin(), abi.encodeCall(Marketplace.proposeAdmin, (proposed)), 0);
        if (ok && proposed == address(market)) ghostSelfPayeeAccepted += 1;
    }

    /// @dev Mostly the proposed admin accepts; 1 in 4 seeds try another actor (which must fail).
    function acceptAdmin(uint256 actorSeed) external {
        address caller = market.pendingAdmin();
        if (caller == address(0) || actorSeed % 4 == 0) caller = _actor(actorSeed >> 2);
        address pending = market.pendingAdmin();
        bool ok = _call("acceptAdmin", caller, abi.encodeCall(Marketplace.acceptAdmin, ()), 0);
        if (ok && caller != pending) ghostWrongAdminAccepted += 1;
    }

    // ---- offers and carts ----------------------------------------------------------------------

    /// @dev Mostly an existing token not in an auction (any token now and then, burned ones included),
    /// expiring within 2 days (now and then already expired: it must be refused).
    function makeOffer(uint256 actorSeed, uint256 tokenSeed, uint256 amountSeed, uint256 expirySeed) external {
        uint256 tokenId = _token(tokenSeed);
        if (tokenId == 0) return;
        address offerer = _nonOwner(actorSeed, tokenId);
        if (actorSeed % 4 == 0) {
            // Replace a live offer (its amount must come back).
            (uint256 liveToken, address liveOfferer) = _pickOffer(actorSeed >> 2);
            if (liveOfferer != address(0)) (tokenId, offerer) = (liveToken, liveOfferer);
        }
        uint256 amount = bound(amountSeed, expirySeed % 32 == 0 ? 0 : 1, MAX_PRICE);
        uint64 expiresAt = uint64(expirySeed % 16 == 0 ? block.timestamp : block.timestamp + bound(expirySeed >> 4, 1, 2 days));
        _setReentrantTarget(tokenId);
        _call("makeOffer", offerer, abi.encodeCall(Marketplace.makeOffer, (tokenId, expiresAt)), amount);
    }

    function cancelOffer(uint256 seed) external {
        (uint256 tokenId, address offerer) = _pickOffer(seed);
        if (offerer == address(0)) return;
        _call("cancelOffer", offerer, abi.encodeCall(Marketplace.cancelOffer, (tokenId)), 0);
    }

    function rejectOffer(uint256 seed) external {
        (uint256 tokenId, address offerer) = _pickOffer(seed);
        if (offerer == address(0)) return;
        _call("rejectOffer", _owner(tokenId), abi.encodeCall(Marketplace.rejectOfferFrom, (tokenId, offerer)), 0);
    }

    /// @dev The owner accepts an offer, naming its amount; 1 in 8 seeds name another amount (a changed
    /// offer), which must be refused, as must an expired offer.
    function acceptTokenOffer(uint256 seed) external {
        (uint256 tokenId, address offerer) = _pickOffer(seed);
        if (offerer == address(0)) return;
        ShadowOffer memory offer = shadowOffer[tokenId][offerer];
        uint256 expected = (seed >> 64) % 8 == 0 ? offer.amount + 1 + (seed >> 128) % 2 ether : offer.amount;
        bytes memory data = abi.encodeCall(Marketplace.acceptOfferFrom, (tokenId, offerer, expected, 0));
        if (!_call("acceptTokenOffer", _owner(tokenId), data, 0)) return;
        if (expected != offer.amount || block.timestamp >= offer.expiresAt) ghostBadAccepts += 1;
        ghostOffersAccepted += 1;
    }

    /// @dev A cart of up to 5 tokens (mostly listed ones), each at the price seen now, or now and then
    /// a price seen lower (the item must be skipped) or higher (bought at its price, the rest refunded).
    function buyCart(uint256 actorSeed, uint256 tokenSeed, uint256 priceSeed) external {
        uint256 n = 1 + tokenSeed % 5;
        uint256[] memory ids = new uint256[](n);
        uint256[] memory seen = new uint256[](n);
        uint256 value;
        for (uint256 i = 0; i < n; ++i) {
            uint256 tokenId = _pick(uint256(keccak256(abi.encode(tokenSeed, i))), Want.Listed);
            if (tokenId == 0) return;
            ids[i] = tokenId;
            uint256 price;
            try market.tokenInfo(tokenId) returns (Marketplace.TokenInfo memory info) {
                price = info.price;
            } catch {}
            uint256 twist = (priceSeed >> (8 * i)) % 8;
            if (twist == 0 && price > 0) price -= 1;
            else if (twist == 1) price += 1 ether;
            seen[i] = price;
            value += price;
        }
        _setReentrantTarget(ids[0]);
        _cartValue = value;
        _call("buyCart", _actor(actorSeed), abi.encodeCall(Marketplace.buyTokens, (ids, seen)), value);
    }

    uint256 internal _cartValue;

    /// @dev A (token, offerer) with a live offer, searched from a random start; (0, 0) when none.
    function _pickOffer(uint256 seed) internal view returns (uint256 tokenId, address offerer) {
        uint256 count = _offerTokens.length;
        for (uint256 i = 0; i < count; ++i) {
            uint256 k = (seed % count + i) % count;
            if (shadowOffer[_offerTokens[k]][_offerers[k]].amount != 0) return (_offerTokens[k], _offerers[k]);
        }
    }

    // ---- plumbing -----------------------------------------------------------------------------

    /// @dev Mostly short auctions (up to 6 hours) so that many end within a run; 1 in 4 up to 168 hours.
    function _endTime(uint256 seed) internal view returns (uint64) {
        uint256 maxDuration = seed % 4 == 0 ? 168 hours : 6 hours;
        return uint64(block.timestamp + bound(seed >> 2, 1, maxDuration));
    }

    function _actor(uint256 seed) internal view returns (address) {
        return _actors[seed % _actors.length];
    }

    function _token(uint256 seed) internal view returns (uint256) {
        uint256 last = market.lastTokenId();
        if (last == 0) return 0;
        return 1 + (seed % last);
    }

    enum Want {
        Listed,
        LiveAuction,
        LiveAuctionWithBid,
        AuctionWithBid,
        ExpiredWithBid,
        ExpiredWithoutBid
    }

    /// @dev A token in the wanted state, searched from a random start; most seeds (7 in 8) look for
    /// one so that actions mostly succeed; the rest take any token id, burned ones included.
    function _pick(uint256 seed, Want want) internal view returns (uint256) {
        uint256 last = market.lastTokenId();
        if (last == 0) return 0;
        if (seed % 8 == 0) return 1 + ((seed >> 3) % last);
        for (uint256 i = 0; i < last; ++i) {
            uint256 tokenId = 1 + ((seed % last + i) % last);
            if (_is(tokenId, want)) return tokenId;
        }
        return 1 + (seed % last);
    }

    function _is(uint256 tokenId, Want want) internal view returns (bool) {
        try market.tokenInfo(tokenId) returns (Marketplace.TokenInfo memory info) {
            if (want == Want.Listed) return info.forSale;
            if (info.saleType != Marketplace.SaleType.Auction) return false;
            Marketplace.AuctionInfo memory a = market.auctionById(info.auctionId);
            bool live = block.timestamp < a.endTime;
            bool hasBid = a.highestBidder != address(0);
            if (want == Want.LiveAuction) return live;
            if (want == Want.LiveAuctionWithBid) return live && hasBid;
            if (want == Want.AuctionWithBid) return hasBid;
            if (want == Want.ExpiredWithBid) return !live && hasBid;
            return !live && !hasBid;
        } catch {
            return false;
        }
    }

    function _owner(uint256 tokenId) internal view returns (address owner) {
        try market.ownerOf(tokenId) returns (address o) {
            owner = o;
        } catch {
            owner = _actors[0];
        }
    }

    function _nonOwner(uint256 seed, uint256 tokenId) internal view returns (address a) {
        a = _actor(seed);
        if (a == _owner(tokenId)) a = _actor((seed % _actors.length) + 1);
    }

    function _setReentrantTarget(uint256 tokenId) internal {
        reentrant.setTarget(tokenId, 1 ether);
        reentrant.setOfferer(_actors[tokenId % _actors.length]);
    }

    /// @dev Calls the market as `from` (through its own code for contract actors), records the logs
    /// and, when the call succeeded, folds them into the ghosts and the shadow market.
    function _call(bytes32 name, address from, bytes memory data, uint256 value) internal returns (bool ok) {
        calls[name] += 1;
        if (from == address(0)) return false;
        vm.recordLogs();
        if (_isContract[from]) {
            try Actor(payable(from)).act(data, value) {
                ok = true;
            } catch {}
        } else {
            vm.prank(from);
            (ok,) = address(market).call{value: value}(data);
        }
        Vm.Log[] memory logs = vm.getRecordedLogs();
        if (!ok) {
            ghostFailedCalls += 1;
            return false;
        }
        okCalls[name] += 1;
        _fold(logs);
        _checkEndTimes();
    }

    function _fold(Vm.Log[] memory logs) internal {
        uint256 royaltiesSeen;
        uint256 royaltiesClaimed;
        uint256 awaitingSnapshot; // a token whose sale just started, until its fee snapshot is seen
        uint256 awaitingAuction; // the auction that sale opened (0 for a fixed price)
        address acceptedOfferer; // an accepted offer's buyer, until its Sold is seen
        uint256 acceptedAmount;
        uint256 cartSpent; // the prices of the sales a cart made
        for (uint256 i = 0; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter != address(market)) continue;
            bytes32 t = log.topics[0];
            if (
                (t == T_SOLD || t == T_BID_PLACED || t == T_OFFER_MADE || t == T_SALE_UPDATED)
                    && block.timestamp < shadowHeldUntil[uint256(log.topics[1])]
            ) {
                // A held token's only SaleUpdated is the one that ends its listing.
                if (t != T_SALE_UPDATED || abi.decode(log.data, (uint8)) != 0) ghostTradesWhileHeld += 1;
            }
            if (t == T_SALE_HELD) {
                (uint64 until,) = abi.decode(log.data, (uint64, bytes32));
                shadowHeldUntil[uint256(log.topics[1])] = until;
            } else if (t == T_SALE_RELEASED) {
                delete shadowHeldUntil[uint256(log.topics[1])];
            } else if (t == T_TRANSFER) {
                uint256 tokenId = uint256(log.topics[3]);
                shadowToken[tokenId].owner = address(uint160(uint256(log.topics[2])));
            } else if (t == T_SALE_UPDATED) {
                uint256 tokenId = uint256(log.topics[1]);
                uint256 auctionId = uint256(log.topics[2]);
                (Marketplace.SaleType saleType, uint256 price,, uint64 endTime) =
                    abi.decode(log.data, (Marketplace.SaleType, uint256, uint256, uint64));
                ShadowToken storage st = shadowToken[tokenId];
                st.saleType = saleType;
                st.price = price;
                st.feeBps = 0;
                if (saleType == Marketplace.SaleType.Auction) {
                    st.auctionId = auctionId;
                    shadowAuction[auctionId].endTime = endTime;
                }
                if (awaitingSnapshot != 0) ghostSnapshotMismatches += 1;
                if (saleType != Marketplace.SaleType.NotForSale) {
                    awaitingSnapshot = tokenId;
                    awaitingAuction = saleType == Marketplace.SaleType.Auction ? auctionId : 0;
                }
            } else if (t == T_FEE_SNAPSHOT) {
                uint256 tokenId = uint256(log.topics[1]);
                uint96 feeBps = abi.decode(log.data, (uint96));
                if (tokenId != awaitingSnapshot || uint256(log.topics[2]) != awaitingAuction) ghostSnapshotMismatches += 1;
                if (feeBps != shadowFeeBps) ghostSnapshotMismatches += 1; // not the fee of this moment
                awaitingSnapshot = 0;
                shadowToken[tokenId].feeBps = feeBps;
                _startFeeBps[tokenId] = feeBps;
            } else if (t == T_AUCTION_EXTENDED) {
                shadowAuction[uint256(log.topics[2])].endTime = abi.decode(log.data, (uint64));
            } else if (t == T_PRICE_CHANGED) {
                shadowToken[uint256(log.topics[1])].price = abi.decode(log.data, (uint256));
            } else if (t == T_BID_PLACED) {
                uint256 auctionId = uint256(log.topics[2]);
                address bidder = address(uint160(uint256(log.topics[3])));
                (uint256 amount, uint64 endTime) = abi.decode(log.data, (uint256, uint64));
                ShadowAuction storage sa = shadowAuction[auctionId];
                sa.topBidder = bidder;
                sa.topBid = amount;
                sa.endTime = endTime;
                _bidsOf[auctionId].push(_bids.length);
                _bids.push(BidRecord({auctionId: auctionId, bidder: bidder, amount: amount, status: 0}));
            } else if (t == T_BID_REFUNDED || t == T_BID_REJECTED) {
                uint256 auctionId = uint256(log.topics[2]);
                address bidder = address(uint160(uint256(log.topics[3])));
                uint256 amount = abi.decode(log.data, (uint256));
                ShadowAuction storage sa = shadowAuction[auctionId];
                if (sa.topBidder == bidder && sa.topBid == amount) {
                    sa.topBidder = address(0);
                    sa.topBid = 0;
                }
                if (!_closeBid(auctionId, bidder, amount, 1)) ghostUnmatchedBidCloses += 1;
            } else if (t == T_AUCTION_ENDED) {
                uint256 auctionId = uint256(log.topics[2]);
                address winner = address(uint160(uint256(log.topics[3])));
                uint256 amount = abi.decode(log.data, (uint256));
                ShadowAuction storage sa = shadowAuction[auctionId];
                sa.ended = true;
                sa.topBidder = winner;
                sa.topBid = amount;
            } else if (t == T_SOLD) {
                ghostSales += 1;
                uint256 auctionId = uint256(log.topics[2]);
                address buyer = address(uint160(uint256(log.topics[3])));
                (, uint256 price, uint256 fee, uint256 royalties, uint256 proceeds) =
                    abi.decode(log.data, (address, uint256, uint256, uint256, uint256));
                if (fee + royalties + proceeds != price) ghostSplitMismatches += 1;
                // The fee of the sale's start, not the fee of now.
                if (fee != (price * _startFeeBps[uint256(log.topics[1])]) / 10_000) ghostSplitMismatches += 1;
                royaltiesClaimed += royalties;
                cartSpent += price;
                if (acceptedOfferer != address(0)) {
                    if (buyer != acceptedOfferer || price != acceptedAmount || auctionId != 0) ghostOfferMismatches += 1;
                    acceptedOfferer = address(0);
                }
                // Every sale ends the listing: a cart's item has no SaleUpdated of its own.
                ShadowToken storage sold = shadowToken[uint256(log.topics[1])];
                sold.saleType = Marketplace.SaleType.NotForSale;
                sold.price = 0;
                sold.feeBps = 0;
                if (auctionId != 0 && _closeBid(auctionId, buyer, price, 2)) ghostWins[auctionId] += 1;
                if (auctionId != 0 && _hasOpenBid(auctionId)) ghostUnmatchedBidCloses += 1;
            } else if (t == T_ROYALTY_PAID) {
                royaltiesSeen += abi.decode(log.data, (uint256));
            } else if (t == T_CREDITED) {
                uint256 amount = abi.decode(log.data, (uint256));
                shadowCredits[address(uint160(uint256(log.topics[1])))] += amount;
                ghostCreditsCreated += amount;
            } else if (t == T_WITHDRAWN) {
                shadowCredits[address(uint160(uint256(log.topics[1])))] -= abi.decode(log.data, (uint256));
            } else if (t == T_FEE) {
                shadowFeeBps = abi.decode(log.data, (uint96));
            } else if (t == T_ADMIN) {
                shadowAdmin = address(uint160(uint256(log.topics[1])));
                shadowPendingAdmin = address(0);
            } else if (t == T_ADMIN_PROPOSED) {
                shadowPendingAdmin = address(uint160(uint256(log.topics[1])));
            } else if (t == T_OFFER_MADE) {
                uint256 tokenId = uint256(log.topics[1]);
                address offerer = address(uint160(uint256(log.topics[2])));
                (uint256 amount, uint64 expiresAt, uint96 feeBps, uint256 replaced) =
                    abi.decode(log.data, (uint256, uint64, uint96, uint256));
                ShadowOffer storage so = shadowOffer[tokenId][offerer];
                if (replaced != so.amount) ghostOfferMismatches += 1;
                if (replaced != 0) ghostOffersReplaced += 1;
                if (feeBps != shadowFeeBps) ghostSnapshotMismatches += 1;
                so.amount = amount;
                so.expiresAt = expiresAt;
                so.feeBps = feeBps;
                bytes32 key = keccak256(abi.encode(tokenId, offerer));
                if (!_offerKnown[key]) {
                    _offerKnown[key] = true;
                    _offerTokens.push(tokenId);
                    _offerers.push(offerer);
                }
            } else if (t == T_OFFER_CANCELLED || t == T_OFFER_REJECTED || t == T_OFFER_ACCEPTED) {
                uint256 tokenId = uint256(log.topics[1]);
                address offerer = address(uint160(uint256(log.topics[2])));
                uint256 amount = abi.decode(log.data, (uint256));
                ShadowOffer storage so = shadowOffer[tokenId][offerer];
                if (amount != so.amount || amount == 0) ghostOfferMismatches += 1;
                if (t == T_OFFER_CANCELLED && market.balanceOf(offerer) > 0) {
                    try market.ownerOf(tokenId) returns (address owner) {
                        if (owner == offerer) ghostOffersRefundedOnTransfer += 1;
                    } catch {} // a burned token: its offers are only cancelled
                }
                if (t == T_OFFER_ACCEPTED) {
                    _startFeeBps[tokenId] = so.feeBps; // the sale that follows pays the offer's snapshot
                    acceptedOfferer = offerer;
                    acceptedAmount = amount;
                }
                delete shadowOffer[tokenId][offerer];
            } else if (t == T_CART_SKIPPED) {
                ghostCartItemsSkipped += 1;
            } else if (t == T_CART) {
                (uint256 items, uint256 bought, uint256 spent, uint256 refunded) =
                    abi.decode(log.data, (uint256, uint256, uint256, uint256));
                if (spent + refunded != _cartValue || spent != cartSpent || bought > items) ghostCartMismatches += 1;
                ghostCartItemsBought += bought;
            }
        }
        if (royaltiesSeen != royaltiesClaimed) ghostRoyaltyMismatches += 1;
        if (acceptedOfferer != address(0)) ghostOfferMismatches += 1; // an accepted offer without its Sold
        if (awaitingSnapshot != 0) ghostSnapshotMismatches += 1;
    }

    /// @dev Marks the open bid (auctionId, bidder, amount) closed with `status`; false if none is open.
    function _closeBid(uint256 auctionId, address bidder, uint256 amount, uint8 status) internal returns (bool) {
        uint256[] storage ids = _bidsOf[auctionId];
        for (uint256 i = ids.length; i > 0; --i) {
            BidRecord storage b = _bids[ids[i - 1]];
            if (b.status == 0 && b.bidder == bidder && b.amount == amount) {
                b.status = status;
                return true;
            }
        }
        return false;
    }

    function _hasOpenBid(uint256 auctionId) internal view returns (bool) {
        uint256[] storage ids = _bidsOf[auctionId];
        for (uint256 i = 0; i < ids.length; ++i) {
            if (_bids[ids[i]].status == 0) return true;
        }
        return false;
    }

    function _checkEndTimes() internal {
        uint256 last = market.lastAuctionId();
        for (uint256 id = 1; id <= last; ++id) {
            uint64 endTime = market.auctionById(id).endTime;
            if (endTime < _lastEnd[id]) ghostEndTimeDecreases += 1;
            _lastEnd[id] = endTime;
        }
    }
}
