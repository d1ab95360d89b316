// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "../utils/Test.sol";
import {console} from "../utils/console.sol";
import {Marketplace} from "../../src/Marketplace.sol";
import {Handler} from "./Handler.sol";

/// @notice Invariants of the market under random sequences of actions by honest and hostile actors
/// (a reverting receiver, a gas burner, a gas-hungry receiver, a re-entrant contract).
abstract contract MarketplaceInvariantBase is Test {
    Marketplace internal market;
    Handler internal handler;
    uint256 internal totalEther;

    function setUp() public {
        vm.warp(1_700_000_000);
        address admin = makeAddr("admin");
        vm.prank(admin);
        market = new Marketplace();
        handler = new Handler(market, admin);
        address moderator = handler.moderator();
        vm.prank(admin);
        market.setModerator(moderator, true);

        address[] memory actors = handler.actors();
        for (uint256 i = 0; i < actors.length; ++i) {
            totalEther += actors[i].balance;
        }

        // A few tokens to start with, some owned by hostile actors and paying royalties to them.
        for (uint256 i = 0; i < 6; ++i) {
            handler.mint(i + 2, uint8(i), (i + 1) * 1 ether, 1 days + i * 1 hours, 3 * i + 1 + (uint256(2_000) << 16));
        }

        bytes4[] memory selectors = new bytes4[](26);
        selectors[0] = Handler.mint.selector;
        selectors[1] = Handler.mint.selector; // minting twice as likely keeps tokens coming
        selectors[2] = Handler.bid.selector;
        selectors[3] = Handler.bid.selector;
        selectors[4] = Handler.buy.selector;
        selectors[5] = Handler.acceptOffer.selector;
        selectors[6] = Handler.settle.selector;
        selectors[7] = Handler.closeAuction.selector;
        selectors[8] = Handler.toggleForSale.selector;
        selectors[9] = Handler.changeTokenPrice.selector;
        selectors[10] = Handler.transfer.selector;
        selectors[11] = Handler.burn.selector;
        selectors[12] = Handler.withdraw.selector;
        selectors[13] = Handler.warp.selector;
        selectors[14] = Handler.setServiceFee.selector;
        selectors[15] = Handler.lateReject.selector;
        selectors[16] = Handler.proposeAdmin.selector;
        selectors[17] = Handler.acceptAdmin.selector;
        selectors[18] = Handler.makeOffer.selector;
        selectors[19] = Handler.makeOffer.selector; // offers twice as likely keeps some live
        selectors[20] = Handler.cancelOffer.selector;
        selectors[21] = Handler.rejectOffer.selector;
        selectors[22] = Handler.acceptTokenOffer.selector;
        selectors[23] = Handler.buyCart.selector;
        selectors[24] = Handler.hold.selector;
        selectors[25] = Handler.release.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// The market holds exactly the escrowed top bids plus the live offers plus the unwithdrawn credits.
    function _assert_balanceCoversEscrowAndCredits() internal view {
        assertEq(
            address(market).balance,
            market.totalEscrowed() + market.totalOffers() + market.totalCredits(),
            "balance == escrowed bids + offers + credits"
        );
        uint256 offers;
        uint256 keys = handler.offerKeyCount();
        for (uint256 i = 0; i < keys; ++i) {
            (uint256 tokenId, address offerer) = handler.offerKeyAt(i);
            (uint256 amount,,) = market.offerOf(tokenId, offerer);
            offers += amount;
        }
        assertEq(offers, market.totalOffers(), "offers == sum of the live offers");
        uint256 escrow;
        uint256 last = market.lastAuctionId();
        for (uint256 id = 1; id <= last; ++id) {
            Marketplace.AuctionInfo memory auction = market.auctionById(id);
            if (!auction.ended) escrow += auction.highestBid;
        }
        assertEq(escrow, market.totalEscrowed(), "escrow == sum of open top bids");
        uint256 credits;
        address[] memory actors = handler.actors();
        for (uint256 i = 0; i < actors.length; ++i) {
            credits += market.creditsOf(actors[i]);
        }
        assertEq(credits, market.totalCredits(), "credits == sum of the actors' credits");
        assertEq(market.creditsOf(address(market)), 0, "the market never owes itself");
    }

    /// No ether is created or lost: actors plus market always hold what the actors started with.
    function _assert_etherIsConserved() internal view {
        uint256 sum = address(market).balance;
        address[] memory actors = handler.actors();
        for (uint256 i = 0; i < actors.length; ++i) {
            sum += actors[i].balance;
        }
        assertEq(sum, totalEther, "ether conserved");
    }

    /// Every sale's fee + royalties + seller proceeds == price, the fee is the one snapshotted when the
    /// sale started (each start snapshots the fee of its moment), and the royalties paid match.
    function _assert_everySaleSplitsExactlyThePrice() internal view {
        assertEq(handler.ghostSplitMismatches(), 0, "split mismatch");
        assertEq(handler.ghostSnapshotMismatches(), 0, "a sale start without the fee snapshot of its moment");
        assertEq(handler.ghostRoyaltyMismatches(), 0, "RoyaltyPaid events != Sold.royalties");
    }

    /// A transferred, burned or missing token has no listing and no open auction; and every open
    /// auction belongs to a listed token (no orphaned auction state).
    function _assert_noListingOnTransferredBurnedOrMissingTokens() internal view {
        assertEq(handler.ghostListingAfterTransfer(), 0, "listing survived a transfer");
        uint256 lastToken = market.lastTokenId();
        for (uint256 tokenId = 1; tokenId <= lastToken + 1; ++tokenId) {
            try market.tokenInfo(tokenId) returns (Marketplace.TokenInfo memory info) {
                bool inAuction = info.saleType == Marketplace.SaleType.Auction;
                assertEq(info.forSale, info.saleType != Marketplace.SaleType.NotForSale, "forSale flag");
                if (info.saleType == Marketplace.SaleType.NotForSale) assertEq(info.price, 0, "price when not for sale");
                if (block.timestamp < market.saleHeldUntil(tokenId)) assertFalse(info.forSale, "a held token is listed");
                if (info.auctionId != 0) {
                    Marketplace.AuctionInfo memory auction = market.auctionById(info.auctionId);
                    assertEq(auction.tokenId, tokenId, "auction's token");
                    assertEq(!auction.ended, inAuction, "open auction <=> in auction");
                    if (inAuction) assertEq(auction.buyNowPrice, info.price, "price == buy-now");
                } else {
                    assertFalse(inAuction, "in auction without an auction id");
                }
            } catch {
                (address[] memory receivers,) = market.royaltiesOf(tokenId);
                assertEq(receivers.length, 0, "royalties of a burned or missing token");
            }
        }
        uint256 lastAuction = market.lastAuctionId();
        for (uint256 id = 1; id <= lastAuction; ++id) {
            Marketplace.AuctionInfo memory auction = market.auctionById(id);
            if (auction.ended) continue;
            Marketplace.TokenInfo memory info = market.tokenInfo(auction.tokenId); // reverts if burned
            assertEq(info.auctionId, id, "an open auction is its token's current auction");
            assertEq(uint256(info.saleType), uint256(Marketplace.SaleType.Auction), "open auction, token in auction");
        }
    }

    /// An auction's end time never moves earlier, and a late rejection extends it as a late bid does.
    function _assert_endTimeNeverDecreases() internal view {
        assertEq(handler.ghostEndTimeDecreases(), 0, "end time decreased");
        assertEq(handler.ghostMissedExtensions(), 0, "a late rejection did not extend the end");
    }

    /// Neither the market itself nor anyone but the proposed account ever becomes a payee of the fee
    /// or of royalties: the market is refused as receiver and as admin, the handover needs acceptance.
    function _assert_marketIsNeverItsOwnPayee() internal view {
        assertEq(handler.ghostSelfPayeeAccepted(), 0, "the market accepted as royalty receiver or admin");
        assertEq(handler.ghostWrongAdminAccepted(), 0, "the admin role taken by an account not proposed");
        assertTrue(market.admin() != address(market), "admin is the market");
        assertTrue(market.pendingAdmin() != address(market), "pending admin is the market");
    }

    /// Per auction: at most one open bid, and it is the contract's top bid; each bid is closed at
    /// most once (refunded or won), every bid of an ended auction is closed, at most one win.
    function _assert_eachBidEndsRefundedOrWonExactlyOnce() internal view {
        assertEq(handler.ghostUnmatchedBidCloses(), 0, "a refund or win without a matching open bid");
        uint256 lastAuction = market.lastAuctionId();
        for (uint256 id = 1; id <= lastAuction; ++id) {
            Marketplace.AuctionInfo memory auction = market.auctionById(id);
            uint256[] memory ids = handler.bidsOf(id);
            uint256 open;
            uint256 won;
            for (uint256 i = 0; i < ids.length; ++i) {
                Handler.BidRecord memory b = handler.bidAt(ids[i]);
                if (b.status == 0) {
                    open += 1;
                    assertEq(b.bidder, auction.highestBidder, "the open bid is the top bid");
                    assertEq(b.amount, auction.highestBid, "the open bid's amount is the top bid");
                }
                if (b.status == 2) won += 1;
            }
            assertLe(open, 1, "at most one open top bid");
            assertLe(won, 1, "at most one winning bid");
            assertLe(handler.ghostWins(id), 1, "won at most once");
            if (auction.ended) assertEq(open, 0, "an ended auction has no open bid");
            if (!auction.ended && auction.highestBidder != address(0)) assertEq(open, 1, "the top bid is recorded");
        }
    }

    /// Offers: every close (cancel, reject, accept) and replacement matches the offer it ends, an
    /// accepted offer is sold to its offerer at its amount, and no accept succeeds once the offer
    /// expired or with an amount other than the offer's. Carts: spent + refunded == msg.value.
    function _assert_offersAndCartsAddUp() internal view {
        assertEq(handler.ghostOfferMismatches(), 0, "an offer event that does not match its offer");
        // No owner holds an offer on its own token: getting the token refunded it.
        for (uint256 i = 0; i < handler.offerKeyCount(); ++i) {
            (uint256 tokenId, address offerer) = handler.offerKeyAt(i);
            (uint256 amount,,) = market.offerOf(tokenId, offerer);
            if (amount == 0) continue;
            try market.ownerOf(tokenId) returns (address owner) {
                assertTrue(owner != offerer, "an owner holds an offer on its own token");
            } catch {}
        }
        assertEq(handler.ghostBadAccepts(), 0, "an expired or changed offer was accepted");
        assertEq(handler.ghostCartMismatches(), 0, "a cart that does not add up");
    }

    /// Re-entrant calls made while one of the market's payout paths runs never succeed.
    function _assert_reentrancyNeverSucceeds() internal view {
        assertEq(handler.reentrant().successes(), 0, "re-entry succeeded");
    }

    /// The events alone rebuild the market: owners, listings, auctions, credits, fee and admin.
    function _assert_eventsRebuildTheState() internal view {
        assertEq(handler.shadowAdmin(), market.admin(), "admin");
        assertEq(handler.shadowPendingAdmin(), market.pendingAdmin(), "pending admin");
        assertEq(uint256(handler.shadowFeeBps()), uint256(market.serviceFeeBps()), "fee");
        uint256 lastToken = market.lastTokenId();
        for (uint256 tokenId = 1; tokenId <= lastToken; ++tokenId) {
            (address owner, Marketplace.SaleType saleType, uint256 price, uint256 auctionId, uint96 feeBps) =
                handler.shadowToken(tokenId);
            try market.tokenInfo(tokenId) returns (Marketplace.TokenInfo memory info) {
                assertEq(owner, info.currentOwner, "owner");
                assertEq(uint256(feeBps), uint256(market.serviceFeeBpsOf(tokenId)), "fee snapshot");
                assertEq(uint256(saleType), uint256(info.saleType), "sale type");
                assertEq(price, info.price, "price");
                if (info.saleType == Marketplace.SaleType.Auction) assertEq(auctionId, info.auctionId, "auction id");
            } catch {
                assertEq(owner, address(0), "a burned token has no owner");
            }
        }
        uint256 lastAuction = market.lastAuctionId();
        for (uint256 id = 1; id <= lastAuction; ++id) {
            Marketplace.AuctionInfo memory auction = market.auctionById(id);
            (uint64 endTime, address topBidder, uint256 topBid, bool ended) = handler.shadowAuction(id);
            assertEq(uint256(endTime), uint256(auction.endTime), "end time");
            assertEq(topBidder, auction.highestBidder, "top bidder / winner");
            assertEq(topBid, auction.highestBid, "top bid / price");
            assertEq(ended, auction.ended, "ended");
        }
        address[] memory actors = handler.actors();
        for (uint256 i = 0; i < actors.length; ++i) {
            assertEq(handler.shadowCredits(actors[i]), market.creditsOf(actors[i]), "credits");
        }
        uint256 keys = handler.offerKeyCount();
        for (uint256 i = 0; i < keys; ++i) {
            (uint256 tokenId, address offerer) = handler.offerKeyAt(i);
            (uint256 amount, uint64 expiresAt, uint96 feeBps) = market.offerOf(tokenId, offerer);
            (uint256 sAmount, uint64 sExpiresAt, uint96 sFeeBps) = handler.shadowOffer(tokenId, offerer);
            assertEq(sAmount, amount, "offer amount");
            assertEq(uint256(sExpiresAt), uint256(expiresAt), "offer expiry");
            assertEq(uint256(sFeeBps), uint256(feeBps), "offer fee snapshot");
        }
        assertEq(handler.shadowOffersTotal(), market.totalOffers(), "total offers");
        for (uint256 tokenId = 1; tokenId <= lastToken; ++tokenId) {
            assertEq(uint256(handler.shadowHeldUntil(tokenId)), uint256(market.saleHeldUntil(tokenId)), "hold end");
        }
    }

    /// No sale, bid, listing or offer happens while a token's sale is held, and no hold goes beyond its limit.
    function _assert_holdsBlockTradesWithinTheirLimits() internal view {
        assertEq(handler.ghostTradesWhileHeld(), 0, "a trade while held");
        assertEq(handler.ghostHoldsBeyondLimit(), 0, "a hold beyond its limit");
    }

    /// Prints how much the campaign did (run with -vv), so a reader can see it is not vacuous.
    function _printSummary() internal view {
        console.log("sales", handler.ghostSales());
        console.log("bids", handler.bidCount());
        console.log("transfers", handler.ghostTransfers());
        console.log("burns", handler.ghostBurns());
        console.log("credits created (wei)", handler.ghostCreditsCreated());
        console.log("withdrawals", handler.ghostWithdrawals());
        console.log("reentry attempts", handler.reentrant().attempts());
        console.log("failed calls", handler.ghostFailedCalls());
        console.log("late rejections", handler.ghostLateRejections());
        console.log("offers accepted", handler.ghostOffersAccepted());
        console.log("offers replaced", handler.ghostOffersReplaced());
        console.log("cart items bought", handler.ghostCartItemsBought());
        console.log("cart items skipped", handler.ghostCartItemsSkipped());
        console.log("holds", handler.ghostHolds());
        bytes32[22] memory names = [
            bytes32("mint"), "bid", "buy", "acceptOffer", "settle", "closeAuction", "toggleForSale",
            "changeTokenPrice", "transfer", "burn", "withdraw", "setServiceFee", "lateReject", "proposeAdmin",
            "acceptAdmin", "makeOffer", "cancelOffer", "rejectOffer", "acceptTokenOffer", "buyCart", "hold", "release"
        ];
        for (uint256 i = 0; i < names.length; ++i) {
            console.log(string(abi.encodePacked(names[i])), handler.okCalls(names[i]));
            console.log("  tried", handler.calls(names[i]));
        }
    }
}


/// @notice The invariant campaign: forge calls random handler actions and checks these after each.
contract MarketplaceInvariantTest is MarketplaceInvariantBase {
    function invariant_balanceCoversEscrowAndCredits() public view {
        _assert_balanceCoversEscrowAndCredits();
    }

    function invariant_etherIsConserved() public view {
        _assert_etherIsConserved();
    }

    function invariant_everySaleSplitsExactlyThePrice() public view {
        _assert_everySaleSplitsExactlyThePrice();
    }

    function invariant_noListingOnTransferredBurnedOrMissingTokens() public view {
        _assert_noListingOnTransferredBurnedOrMissingTokens();
    }

    function invariant_endTimeNeverDecreases() public view {
        _assert_endTimeNeverDecreases();
    }

    function invariant_eachBidEndsRefundedOrWonExactlyOnce() public view {
        _assert_eachBidEndsRefundedOrWonExactlyOnce();
    }

    function invariant_reentrancyNeverSucceeds() public view {
        _assert_reentrancyNeverSucceeds();
    }

    function invariant_eventsRebuildTheState() public view {
        _assert_eventsRebuildTheState();
    }

    function invariant_marketIsNeverItsOwnPayee() public view {
        _assert_marketIsNeverItsOwnPayee();
    }

    function invariant_offersAndCartsAddUp() public view {
        _assert_offersAndCartsAddUp();
    }

    function invariant_holdsBlockTradesWithinTheirLimits() public view {
        _assert_holdsBlockTradesWithinTheirLimits();
    }

    function afterInvariant() public view {
        _printSummary();
    }
}

/// @notice The handler is not vacuous: a long fixed pseudo-random sequence of its actions reaches every
/// kind of outcome (sales of each kind, bids, refunds, credits, withdrawals, re-entry attempts), and the
/// invariants above hold after it.
contract HandlerCoverageTest is MarketplaceInvariantBase {
    function test_handler_longSequence_reachesEveryOutcome_andKeepsTheInvariants() public {
        uint256 seed = 42;
        for (uint256 i = 0; i < 600; ++i) {
            seed = uint256(keccak256(abi.encode(seed)));
            uint256 x = uint256(keccak256(abi.encode(seed, 1)));
            uint256 y = uint256(keccak256(abi.encode(seed, 2)));
            uint256 z = uint256(keccak256(abi.encode(seed, 3)));
            uint256 action = seed % 27;
            if (action < 2) handler.mint(x, uint8(y), z, x >> 3, y);
            else if (action < 5) handler.bid(x, y, z);
            else if (action == 5) handler.buy(x, y);
            else if (action == 6) handler.acceptOffer(x, y % 2 == 0);
            else if (action == 7) handler.settle(x, y);
            else if (action == 8) handler.closeAuction(x);
            else if (action == 9) handler.toggleForSale(x, uint8(y), z, x >> 7);
            else if (action == 10) handler.changeTokenPrice(x, y);
            else if (action == 11) handler.transfer(x, y, z % 2 == 0);
            else if (action == 12) handler.withdraw(x);
            else if (action == 13) handler.burn(x);
            else if (action == 14) handler.warp(x);
            else if (action == 15) handler.lateReject(x, y);
            else if (action == 16) handler.proposeAdmin(x);
            else if (action == 17) handler.acceptAdmin(x);
            else if (action == 18) handler.makeOffer(x, y, z, x >> 5);
            else if (action == 19) handler.makeOffer(x & ~uint256(3), y, z, x >> 5); // replaces a live offer
            else if (action == 20) handler.cancelOffer(x);
            else if (action == 21) handler.rejectOffer(x);
            else if (action == 22) handler.acceptTokenOffer(x);
            else if (action == 23) handler.buyCart(x, y, z);
            else if (action == 25) handler.hold(x, y, z % 4 == 0);
            else if (action == 26) handler.release(x);
            else handler.setServiceFee(x);
        }
        bytes32[23] memory names = [
            bytes32("mint"), "bid", "buy", "acceptOffer", "settle", "closeAuction", "toggleForSale",
            "changeTokenPrice", "transfer", "burn", "withdraw", "warp", "lateReject", "proposeAdmin",
            "acceptAdmin", "setServiceFee", "makeOffer", "cancelOffer", "rejectOffer", "acceptTokenOffer", "buyCart",
            "hold", "release"
        ];
        for (uint256 i = 0; i < names.length; ++i) {
            uint256 succeeded = names[i] == "warp" ? handler.calls(names[i]) : handler.okCalls(names[i]);
            assertGt(succeeded, 0, string(abi.encodePacked("no successful ", names[i])));
        }
        assertGt(handler.ghostSales(), 10, "sales");
        assertGt(handler.bidCount(), 20, "bids");
        assertGt(handler.ghostCreditsCreated(), 0, "credits");
        assertGt(handler.reentrant().attempts(), 0, "re-entry attempts");
        assertGt(handler.ghostExtendedByRejection(), 0, "late rejections that extended the end");
        assertGt(handler.ghostOffersAccepted(), 0, "offers accepted");
        assertGt(handler.ghostOffersReplaced(), 0, "offers replaced");
        assertGt(handler.ghostOffersRefundedOnTransfer(), 0, "offers refunded because their offerer got the token");
        assertGt(handler.ghostCartItemsBought(), 0, "cart items bought");
        assertGt(handler.ghostCartItemsSkipped(), 0, "cart items skipped");

        _assert_balanceCoversEscrowAndCredits();
        _assert_etherIsConserved();
        _assert_everySaleSplitsExactlyThePrice();
        _assert_noListingOnTransferredBurnedOrMissingTokens();
        _assert_endTimeNeverDecreases();
        _assert_eachBidEndsRefundedOrWonExactlyOnce();
        _assert_reentrancyNeverSucceeds();
        _assert_eventsRebuildTheState();
        _assert_marketIsNeverItsOwnPayee();
        _assert_offersAndCartsAddUp();
        _assert_holdsBlockTradesWithinTheirLimits();
    }
}
