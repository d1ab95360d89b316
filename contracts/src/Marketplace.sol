// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/**
 * @title Royalty split of a token with two royalty receivers
 * @notice ERC-2981 names one royalty receiver, so {Marketplace.royaltyInfo} names this contract for a
 * token with two: any marketplace that pays royaltyInfo's receiver pays here, and each receiver takes
 * its share of everything received, in the ratio of the two royalty shares. One split exists per
 * (receivers, shares) set, at a CREATE2 address of the market's {RoyaltySplitFactory}. It is created
 * when first needed, by anyone ({RoyaltySplitFactory.create}): ether paid to its address before
 * that waits there (no one holds a key to a CREATE2 address) and counts as received once it exists.
 * @dev Pull payments: receiving costs nothing (other markets may send with 2,300 gas), and each
 * receiver is paid on its own, so a receiver that refuses ether never blocks the other. Receiver 0 is
 * due floor(received × bps0 / (bps0 + bps1)) and receiver 1 the rest, so nothing is left over. Both
 * amounts only grow with what is received, so what is due never goes negative.
 */
contract RoyaltySplit {
    /// @notice The first receiver and its royalty share (basis points).
    address public immutable receiver0;
    uint256 public immutable bps0;
    /// @notice The second receiver and its royalty share (basis points).
    address public immutable receiver1;
    uint256 public immutable bps1;

    /// @notice How much each receiver has taken.
    mapping(address receiver => uint256) public released;
    /// @notice The sum taken by both receivers.
    uint256 public totalReleased;

    /// @notice A receiver's share was paid out.
    /// @param receiver The receiver whose share it is.
    /// @param recipient Where it was sent (the receiver, or the address it named).
    /// @param amount The amount.
    event RoyaltyReleased(address indexed receiver, address recipient, uint256 amount);

    /// @notice The account is not one of the split's two receivers.
    error RoyaltySplitNotReceiver(address account);
    /// @notice The receiver has nothing due.
    error RoyaltySplitNothingDue(address receiver);
    /// @notice Sending the share failed (the recipient refused it); nothing changed.
    error RoyaltySplitTransferFailed(address recipient, uint256 amount);

    /// @param r0 The first receiver.
    /// @param b0 Its share in basis points.
    /// @param r1 The second receiver.
    /// @param b1 Its share in basis points.
    constructor(address r0, uint96 b0, address r1, uint96 b1) {
        receiver0 = r0;
        bps0 = b0;
        receiver1 = r1;
        bps1 = b1;
    }

    /// @notice Takes royalties from anyone, at no gas cost beyond the transfer.
    receive() external payable {}

    /// @notice What a receiver can take now.
    /// @param receiver One of the two receivers (0 for any other account).
    /// @return The amount due.
    function due(address receiver) public view returns (uint256) {
        uint256 received = address(this).balance + totalReleased;
        uint256 first = (received * bps0) / (bps0 + bps1);
        if (receiver == receiver0) return first - released[receiver];
        if (receiver == receiver1) return received - first - released[receiver];
        return 0;
    }

    /// @notice Pays a receiver everything due to it, with all gas. Anyone can call it.
    /// @param receiver One of the two receivers.
    function release(address receiver) external {
        _release(receiver, payable(receiver));
    }

    /// @notice The caller, a receiver, takes what is due to it at another address (for a receiver
    /// that cannot take ether).
    /// @param recipient Where to send it.
    function releaseTo(address payable recipient) external {
        _release(msg.sender, recipient);
    }

    function _release(address receiver, address payable recipient) private {
        if (receiver != receiver0 && receiver != receiver1) revert RoyaltySplitNotReceiver(receiver);
        uint256 amount = due(receiver);
        if (amount == 0) revert RoyaltySplitNothingDue(receiver);
        released[receiver] += amount;
        totalReleased += amount;
        emit RoyaltyReleased(receiver, recipient, amount);
        (bool success,) = recipient.call{value: amount}("");
        if (!success) revert RoyaltySplitTransferFailed(recipient, amount);
    }
}

/**
 * @title Creates the royalty splits of one market
 * @notice The market deploys this factory in its constructor (its first contract creation) and asks it
 * where the split of a (receivers, shares) set is. Each split sits at a CREATE2 address derived from
 * its receivers and shares (salt 0), so every token with the same set names the same split. Anyone may
 * create a split, at any time (a mint does not pay for it): its address and code depend only on the
 * set, and ether sent to the address before is counted once it exists.
 */
contract RoyaltySplitFactory {
    /// @notice The split of these receivers and shares (created or not).
    /// @param r0 The first receiver.
    /// @param b0 Its share in basis points.
    /// @param r1 The second receiver.
    /// @param b1 Its share in basis points.
    /// @return The split's address.
    function splitOf(address r0, uint96 b0, address r1, uint96 b1) public view returns (address) {
        bytes32 initCodeHash = keccak256(_initCode(r0, b0, r1, b1));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(0), initCodeHash)))));
    }

    /// @notice Creates the split of these receivers and shares unless it exists; returns its address.
    /// @param r0 The first receiver.
    /// @param b0 Its share in basis points.
    /// @param r1 The second receiver.
    /// @param b1 Its share in basis points.
    /// @return split The split's address.
    function create(address r0, uint96 b0, address r1, uint96 b1) external returns (address split) {
        split = splitOf(r0, b0, r1, b1);
        if (split.code.length == 0) new RoyaltySplit{salt: bytes32(0)}(r0, b0, r1, b1);
    }

    function _initCode(address r0, uint96 b0, address r1, uint96 b1) private pure returns (bytes memory) {
        return abi.encodePacked(type(RoyaltySplit).creationCode, abi.encode(r0, b0, r1, b1));
    }
}

/**
 * @title NFT Marketplace
 * @notice One contract that is at once the ERC-721 collection (with per-token royalties, ERC-2981) and
 * its market: fixed-price sales, English auctions with a buy-now price (whose top bid the owner accepts
 * or rejects), escrowed offers on any token not in an auction, a cart that buys several fixed-price
 * tokens at once, and a service fee for the admin.
 *
 * Money rules:
 * - Bids are escrowed here. An outbid, rejected, stopped or bought-out bidder is refunded at once.
 * - Offers are escrowed here until accepted, rejected or cancelled (a replaced offer is refunded at
 *   once). Burning a token leaves its offers to be cancelled by their offerers: no loop over them.
 * - So the balance is always exactly the escrowed bids + the escrowed offers + the credits.
 * - Every payout (seller, royalty receivers, service fee, refunds) is pushed with at most
 *   {PUSH_GAS_LIMIT} gas. When the push fails (the receiver reverts, burns gas or cannot take ether)
 *   the amount becomes a credit that the receiver pulls with {withdrawCredits} or {withdrawCreditsTo}.
 *   So no receiver can block a sale, a bid or a refund.
 * - Fee and royalties can never exceed the price: the service fee is capped at {MAX_SERVICE_FEE_BPS}
 *   and the royalties of a token at {MAX_ROYALTY_BPS}, whose sum is 100%.
 * - A sale pays the service fee of the moment it started (listing, or minting on sale): a later fee
 *   change never applies to a pending sale or auction.
 * - The market's own address can be neither a royalty receiver nor the admin: a payout to it could
 *   only become a credit that nobody can ever withdraw.
 * - Every payout path follows checks-effects-interactions and is `nonReentrant`.
 * - Any transfer clears the token's listing and its open auction (refunding the top bidder);
 *   a token can only be burned when it is not for sale.
 *
 * Stolen-item holds: moderators (granted and revoked by the admin, {setModerator}) can hold a token's
 * sale on this market ({holdSale}) for at most {MAX_HOLD} from the start of the hold, or up to
 * {MAX_HOLD_WITH_EVIDENCE} from now with a note of evidence (the hash of a police report), renewable,
 * and release it ({releaseSale}). A hold ends the token's listing and open auction (refunding the top
 * bidder, as a transfer does) and, until it ends, refuses listing, buying, bidding, accepting,
 * settling and offering ({MarketplaceSaleHeld}); a cart skips the token. Transfers, burning, stopping
 * a sale, rejecting and cancelling offers and withdrawing credits stay free: the market holds no
 * tokens, so it cannot stop them elsewhere, and no money waits on a hold.
 *
 * Every state change emits an event that carries the new values, so an indexer can rebuild the
 * whole state from the logs alone.
 */
contract Marketplace is ERC721, IERC2981, ReentrancyGuard {
    // ------------------------------------------------------------------------------------------
    // Types
    // ------------------------------------------------------------------------------------------

    /// @notice How a token is offered: not at all, at a fixed price, or in an auction.
    enum SaleType {
        NotForSale,
        FixedPrice,
        Auction
    }

    /// @notice Everything the market knows about a token, as returned by {tokenInfo}.
    /// @param tokenId The token id.
    /// @param tokenURI The metadata URI given at mint.
    /// @param mintedBy The account that minted the token.
    /// @param currentOwner The current owner.
    /// @param previousOwner The owner before the last transfer (zero until the first transfer).
    /// @param price The asking price: the fixed price, or the buy-now price of an auction; 0 when not for sale.
    /// @param numberOfTransfers How many times the token changed hands (the mint is not counted).
    /// @param forSale True when the token is listed at a fixed price or in an auction.
    /// @param saleType The current sale type.
    /// @param auctionId The id of the token's open auction, or of its last auction when none is open (0: never auctioned).
    /// @param numberOfRoyalties How many royalty receivers the token has (0, 1 or 2).
    struct TokenInfo {
        uint256 tokenId;
        string tokenURI;
        address mintedBy;
        address currentOwner;
        address previousOwner;
        uint256 price;
        uint256 numberOfTransfers;
        bool forSale;
        SaleType saleType;
        uint256 auctionId;
        uint256 numberOfRoyalties;
    }

    /// @notice One auction, as returned by {auctionInfo} and {auctionById}.
    /// @param auctionId The auction id (global counter, starting at 1).
    /// @param tokenId The token being auctioned.
    /// @param endTime When bidding closes (unix seconds); a late bid or rejection moves it later, never earlier.
    /// @param lowestBidAmount The base price: the minimum first bid.
    /// @param buyNowPrice The price at which {buyToken} ends the auction at once.
    /// @param ended True once the auction is over (sold, closed, stopped or cleared by a transfer).
    /// @param highestBid The escrowed top bid while open; the price paid once sold; 0 if ended unsold.
    /// @param highestBidder The top bidder while open; the buyer once sold; zero if ended unsold.
    /// @param sold True when the auction ended with a sale (buy-now, accepted offer or settlement).
    struct AuctionInfo {
        uint256 auctionId;
        uint256 tokenId;
        uint64 endTime;
        uint256 lowestBidAmount;
        uint256 buyNowPrice;
        bool ended;
        uint256 highestBid;
        address highestBidder;
        bool sold;
    }

    /// @dev Per-token market state. `mintedBy`, `numberOfTransfers`, `saleType`, `feeBps` and
    /// `openOffers` share one slot. `feeBps` is the service fee snapshotted when the current sale started
    /// (0 when not for sale). `openOffers` counts the escrowed offers on the token, so a transfer looks
    /// up the new owner's offer (a cold read) only when there is any.
    /// `previousOwner` and `price` share the next one: a sale clears the price and sets the previous
    /// owner in one write (a separate slot for the previous owner cost 22,100 gas at a first sale).
    struct Token {
        address mintedBy;
        uint48 numberOfTransfers;
        SaleType saleType;
        uint16 feeBps;
        uint24 openOffers;
        address previousOwner;
        uint96 price;
        uint256 auctionId;
    }

    /// @dev Per-auction state. `highestBidder`, `endTime`, `ended` and `sold` share one slot.
    struct Auction {
        uint256 tokenId;
        uint256 lowestBidAmount;
        uint256 buyNowPrice;
        uint256 highestBid;
        address highestBidder;
        uint64 endTime;
        bool ended;
        bool sold;
    }

    /// @dev One royalty row.
    struct Royalty {
        address receiver;
        uint96 bps;
    }

    /// @dev An escrowed offer on a token, one per (token, offerer); all three fields share one slot.
    /// `feeBps` is the service fee snapshotted when the offer was made (the fee its sale pays).
    struct Offer {
        uint176 amount;
        uint64 expiresAt;
        uint16 feeBps;
    }

    /// @dev A stolen-item hold on a token's sale (one slot): held while block.timestamp < until.
    /// `since` is when the current uninterrupted hold began, which bounds a renewal without evidence.
    struct Hold {
        uint64 until;
        uint64 since;
    }

    /// @dev The payees of a cart, in the order of their first payout; each payee's sum is kept in
    /// transient storage ({_owedSlot}), so adding to it costs the same for the 1st payee and the 60th.
    /// The sums are pushed once after all the cart's purchases. An empty ledger (no payees) means
    /// "push at once", as every single sale does.
    struct Ledger {
        address[] payees;
        uint256 count;
    }

    // ------------------------------------------------------------------------------------------
    // Constants
    // ------------------------------------------------------------------------------------------

    /// @notice Basis points in 100%.
    uint96 public constant BPS_DENOMINATOR = 10_000;
    /// @notice The service fee set at deployment: 5%.
    uint96 public constant DEFAULT_SERVICE_FEE_BPS = 500;
    /// @notice The highest service fee the admin can set: 10%.
    uint96 public constant MAX_SERVICE_FEE_BPS = 1_000;
    /// @notice The highest sum of a token's royalties: 90%, so fee + royalties <= 100% always.
    uint96 public constant MAX_ROYALTY_BPS = BPS_DENOMINATOR - MAX_SERVICE_FEE_BPS;
    /// @notice The most royalty receivers a token can have.
    uint256 public constant MAX_ROYALTY_RECEIVERS = 2;
    /// @notice The furthest an auction can end from the moment it starts.
    uint256 public constant MAX_AUCTION_DURATION = 168 hours;
    /// @notice A bid closer than this to the end moves the end to this long after the bid.
    uint256 public constant ANTI_SNIPING_WINDOW = 10 minutes;
    /// @notice Each bid must beat the top bid by at least this share (rounded up, at least 1 wei): 5%.
    uint256 public constant MIN_RAISE_BPS = 500;
    /// @notice The gas forwarded with each pushed payout; a failed push becomes a credit.
    uint256 public constant PUSH_GAS_LIMIT = 10_000;
    /// @notice The highest asking price (fixed or buy-now): 2**96 - 1 wei, about 79 billion MATIC, far
    /// above the supply, so that the price shares a storage slot with the previous owner.
    uint256 public constant MAX_PRICE = type(uint96).max;
    /// @notice The most tokens {buyTokens} takes in one cart.
    uint256 public constant MAX_CART_ITEMS = 20;
    /// @notice The longest an offer can stay acceptable from the moment it is made (OpenSea's longest):
    /// an offer keeps the fee of its moment, so it must not outlive fee changes by years.
    uint256 public constant MAX_OFFER_DURATION = 180 days;
    /// @notice The longest a hold without evidence lasts, counted from the start of the hold (OpenSea's
    /// review of an item reported stolen): renewals without evidence cannot go past it.
    uint256 public constant MAX_HOLD = 7 days;
    /// @notice The furthest a hold with a note of evidence (a police report) can end from now; it is
    /// renewable with evidence again.
    uint256 public constant MAX_HOLD_WITH_EVIDENCE = 90 days;

    // ------------------------------------------------------------------------------------------
    // Storage
    // ------------------------------------------------------------------------------------------

    address private _admin;
    uint96 private _serviceFeeBps;
    address private _pendingAdmin;
    uint256 private _lastTokenId;
    uint256 private _lastAuctionId;
    uint256 private _totalEscrowed;
    uint256 private _totalCredits;
    uint256 private _totalOffers;

    mapping(uint256 tokenId => Token) private _tokens;
    mapping(uint256 tokenId => string) private _tokenUris;
    mapping(uint256 tokenId => Royalty[]) private _royalties;
    mapping(uint256 auctionId => Auction) private _auctions;
    mapping(address account => uint256) private _credits;
    mapping(uint256 tokenId => mapping(address offerer => Offer)) private _offers;
    mapping(uint256 tokenId => Hold) private _holds;
    mapping(address account => bool) private _moderators;

    // ------------------------------------------------------------------------------------------
    // Events
    // ------------------------------------------------------------------------------------------

    /// @notice A token was minted (the ERC-721 Transfer from zero precedes it).
    /// @param tokenId The new token id.
    /// @param creator The minter, its first owner.
    /// @param tokenURI The metadata URI.
    /// @param royaltyReceivers The royalty receivers (at most 2).
    /// @param royaltyBps Each receiver's share of every sale, in basis points.
    event Minted(
        uint256 indexed tokenId, address indexed creator, string tokenURI, address[] royaltyReceivers, uint96[] royaltyBps
    );

    /// @notice A token's listing was set: on mint when listed, by {toggleForSale}, and when a sale,
    /// a close or a transfer clears it (then saleType is NotForSale and every value 0). A cart's
    /// purchase clears its item's listing without it: that {Sold} ends the listing (one event less
    /// per item, so that a cart costs at most 0.7x the separate purchases).
    /// @param tokenId The token.
    /// @param saleType The new sale type.
    /// @param price The fixed price, or the auction's buy-now price; 0 when not for sale.
    /// @param basePrice The auction's base price (minimum first bid); 0 unless an auction.
    /// @param endTime The auction's end; 0 unless an auction.
    /// @param auctionId The auction this listing opened; 0 unless an auction.
    event SaleUpdated(
        uint256 indexed tokenId,
        SaleType saleType,
        uint256 price,
        uint256 basePrice,
        uint64 endTime,
        uint256 indexed auctionId
    );

    /// @notice The asking price changed: the fixed price, or the buy-now price of an auction without bids.
    /// @param tokenId The token.
    /// @param price The new price.
    event PriceChanged(uint256 indexed tokenId, uint256 price);

    /// @notice A bid became the top bid of an auction (its ether is escrowed).
    /// @param tokenId The token.
    /// @param auctionId The auction.
    /// @param bidder The bidder.
    /// @param amount The bid.
    /// @param endTime The auction's end after this bid (later than before when the bid came late).
    event BidPlaced(
        uint256 indexed tokenId, uint256 indexed auctionId, address indexed bidder, uint256 amount, uint64 endTime
    );

    /// @notice A top bid was given back: outbid, auction stopped or cleared, or bought out.
    /// @param tokenId The token.
    /// @param auctionId The auction.
    /// @param bidder The bidder refunded.
    /// @param amount The amount refunded (pushed, or credited when the push failed).
    event BidRefunded(uint256 indexed tokenId, uint256 indexed auctionId, address indexed bidder, uint256 amount);

    /// @notice The owner rejected the top bid; it is refunded (this event stands for the refund too)
    /// and the auction stays open until its end (a late rejection extends it: {AuctionExtended}).
    /// @param tokenId The token.
    /// @param auctionId The auction.
    /// @param bidder The bidder refunded.
    /// @param amount The amount refunded.
    event BidRejected(uint256 indexed tokenId, uint256 indexed auctionId, address indexed bidder, uint256 amount);

    /// @notice A rejection of the top bid less than {ANTI_SNIPING_WINDOW} before the end moved the end
    /// later, as a late bid does (a bid carries its new end in {BidPlaced} instead).
    /// @param tokenId The token.
    /// @param auctionId The auction.
    /// @param endTime The auction's new end.
    event AuctionExtended(uint256 indexed tokenId, uint256 indexed auctionId, uint64 endTime);

    /// @notice An auction ended: sold (winner and price), or closed, stopped or cleared unsold (zeros).
    /// @param tokenId The token.
    /// @param auctionId The auction.
    /// @param winner The buyer, or zero when unsold.
    /// @param amount The price paid, or 0 when unsold.
    event AuctionEnded(uint256 indexed tokenId, uint256 indexed auctionId, address indexed winner, uint256 amount);

    /// @notice A token was sold: fixed price, buy-now, accepted offer or settled auction.
    /// fee + royalties + sellerProceeds == price.
    /// @param tokenId The token.
    /// @param auctionId The auction, or 0 for a fixed-price sale.
    /// @param buyer The new owner.
    /// @param seller The previous owner, who receives the proceeds.
    /// @param price The price paid.
    /// @param fee The service fee, paid to the admin.
    /// @param royalties The sum of the royalties paid.
    /// @param sellerProceeds What the seller receives.
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

    /// @notice A royalty share of a sale was paid (pushed, or credited when the push failed).
    /// @param tokenId The token sold.
    /// @param receiver The royalty receiver.
    /// @param amount The share.
    event RoyaltyPaid(uint256 indexed tokenId, address indexed receiver, uint256 amount);

    /// @notice A push payment failed and the amount was credited to the account instead.
    /// @param account The account credited.
    /// @param amount The amount added to its credits.
    event Credited(address indexed account, uint256 amount);

    /// @notice An account withdrew all its credits.
    /// @param account The account whose credits were withdrawn.
    /// @param amount The amount withdrawn.
    event CreditsWithdrawn(address indexed account, uint256 amount);

    /// @notice The service fee changed (also emitted at deployment).
    /// @param feeBps The new fee in basis points.
    event ServiceFeeChanged(uint96 feeBps);

    /// @notice The service fee of a sale that just started (emitted right after its {SaleUpdated}):
    /// that sale pays this fee whatever the fee is when it completes.
    /// @param tokenId The token.
    /// @param auctionId The auction the sale opened, or 0 for a fixed-price sale.
    /// @param feeBps The fee in basis points.
    event ServiceFeeSnapshotted(uint256 indexed tokenId, uint256 indexed auctionId, uint96 feeBps);

    /// @notice The admin proposed a new admin, who takes over by calling {acceptAdmin}; zero when the
    /// admin withdrew a proposal.
    /// @param pendingAdmin The proposed admin.
    event AdminProposed(address indexed pendingAdmin);

    /// @notice The admin changed: at deployment, and when the proposed admin accepted (no admin is
    /// pending afterwards).
    /// @param admin The new admin.
    event AdminChanged(address indexed admin);

    /// @notice An offer on a token was made or replaced; its ether is escrowed. A replaced offer's
    /// amount is refunded to the offerer (pushed, or credited when the push failed).
    /// @param tokenId The token.
    /// @param offerer The account offering (one live offer per token and offerer).
    /// @param amount The amount offered and escrowed.
    /// @param expiresAt From this time on the offer cannot be accepted (it can still be cancelled).
    /// @param feeBps The service fee snapshotted now: the fee this offer's sale pays.
    /// @param replacedAmount The amount of the offer this one replaced, refunded; 0 for a new offer.
    event OfferMade(
        uint256 indexed tokenId,
        address indexed offerer,
        uint256 amount,
        uint64 expiresAt,
        uint96 feeBps,
        uint256 replacedAmount
    );

    /// @notice The offerer withdrew its offer (live, expired, or on a burned token), or became the
    /// token's owner (any transfer to it refunds its offer); the amount is refunded.
    /// @param tokenId The token.
    /// @param offerer The offerer refunded.
    /// @param amount The amount refunded.
    event OfferCancelled(uint256 indexed tokenId, address indexed offerer, uint256 amount);

    /// @notice The token's owner rejected an offer; the amount is refunded to the offerer.
    /// @param tokenId The token.
    /// @param offerer The offerer refunded.
    /// @param amount The amount refunded.
    event OfferRejected(uint256 indexed tokenId, address indexed offerer, uint256 amount);

    /// @notice The token's owner accepted an offer. The sale follows as for a purchase:
    /// [SaleUpdated(NotForSale)], Transfer, then {Sold} (auction id 0) with the split of `amount`.
    /// @param tokenId The token.
    /// @param offerer The buyer.
    /// @param seller The owner who accepted.
    /// @param amount The price paid: the escrowed offer.
    event OfferAccepted(uint256 indexed tokenId, address indexed offerer, address indexed seller, uint256 amount);

    /// @notice A cart item was not bought: no longer on sale at a fixed price (sold, stopped, burned,
    /// in an auction, owned by the buyer) or its price is now above the price the buyer saw.
    /// @param tokenId The token.
    /// @param buyer The cart's buyer.
    /// @param seenPrice The price the buyer saw (refunded in the same transaction).
    /// @param price The token's asking price now (0 when not for sale).
    event CartItemSkipped(uint256 indexed tokenId, address indexed buyer, uint256 seenPrice, uint256 price);

    /// @notice A cart was bought: each item bought emitted its own sale events ({Sold}, auction id 0),
    /// each item skipped a {CartItemSkipped}; the unspent ether goes back to the buyer.
    /// @param buyer The buyer.
    /// @param items The number of items in the cart.
    /// @param bought How many were bought.
    /// @param spent The sum of the prices paid.
    /// @param refunded msg.value - spent, refunded (pushed, or credited when the push failed).
    event CartPurchased(address indexed buyer, uint256 items, uint256 bought, uint256 spent, uint256 refunded);

    /// @notice The admin granted or revoked the moderator role (holding and releasing sales).
    /// @param account The account.
    /// @param enabled True when granted, false when revoked.
    event ModeratorSet(address indexed account, bool enabled);

    /// @notice A moderator held the token's sale (or renewed the hold) until `until`: no listing,
    /// purchase, bid, acceptance, settlement or new offer before then. Emitted before the
    /// {SaleUpdated}(NotForSale) and refund events of the listing the hold ended.
    /// @param tokenId The token.
    /// @param moderator The moderator.
    /// @param until The hold ends at this time (unix seconds): sales work again from then on.
    /// @param evidence The hash of the note of evidence (a police report), or zero without.
    event SaleHeld(uint256 indexed tokenId, address indexed moderator, uint64 until, bytes32 evidence);

    /// @notice A moderator released the hold on the token's sale before its end.
    /// @param tokenId The token.
    /// @param moderator The moderator.
    event SaleReleased(uint256 indexed tokenId, address indexed moderator);

    // ------------------------------------------------------------------------------------------
    // Errors
    // ------------------------------------------------------------------------------------------

    /// @notice The token does not exist (never minted, or burned).
    error MarketplaceNonexistentToken(uint256 tokenId);
    /// @notice Only the token's owner can do this.
    error MarketplaceNotOwner(uint256 tokenId);
    /// @notice Only the admin can do this.
    error MarketplaceNotAdmin(address caller);
    /// @notice The token URI is empty.
    error MarketplaceEmptyTokenURI();
    /// @notice The royalty receivers and shares have different lengths.
    error MarketplaceRoyaltyLengthMismatch(uint256 receivers, uint256 shares);
    /// @notice More than {MAX_ROYALTY_RECEIVERS} royalty receivers.
    error MarketplaceTooManyRoyalties(uint256 count);
    /// @notice A royalty receiver is the zero address.
    error MarketplaceZeroRoyaltyReceiver();
    /// @notice A royalty receiver is the market's own address (it could never withdraw its credits).
    error MarketplaceSelfRoyaltyReceiver();
    /// @notice A royalty share is zero.
    error MarketplaceZeroRoyaltyShare();
    /// @notice The two royalty receivers are the same address.
    error MarketplaceDuplicateRoyaltyReceiver(address receiver);
    /// @notice The royalties sum to more than {MAX_ROYALTY_BPS}.
    error MarketplaceRoyaltyTooHigh(uint256 totalBps);
    /// @notice A fixed price, a base price or a new price is zero.
    error MarketplaceZeroPrice();
    /// @notice An auction's buy-now price must be above its base price.
    error MarketplaceBuyNowNotAboveBase(uint256 basePrice, uint256 buyNowPrice);
    /// @notice A value was given that the chosen sale type does not use (it must be 0).
    error MarketplaceUnexpectedSaleParameters();
    /// @notice An auction must end in the future and at most {MAX_AUCTION_DURATION} from now.
    error MarketplaceInvalidEndTime(uint64 endTime);
    /// @notice The token is not for sale.
    error MarketplaceNotForSale(uint256 tokenId);
    /// @notice The token is not in an auction.
    error MarketplaceNotAuction(uint256 tokenId);
    /// @notice The token is for sale (burning needs it not for sale).
    error MarketplaceForSale(uint256 tokenId);
    /// @notice msg.value must equal the price exactly.
    error MarketplaceWrongValue(uint256 expected, uint256 sent);
    /// @notice The owner cannot buy its own token.
    error MarketplaceOwnerCannotBuy(uint256 tokenId);
    /// @notice The owner cannot bid on its own token.
    error MarketplaceOwnerCannotBid(uint256 tokenId);
    /// @notice The auction's end time has passed: no bid, buy-now, rejection or price change.
    error MarketplaceAuctionExpired(uint256 tokenId, uint64 endTime);
    /// @notice The auction has not reached its end time yet.
    error MarketplaceAuctionNotExpired(uint256 tokenId, uint64 endTime);
    /// @notice The bid is below the base price or the minimum raise over the top bid.
    error MarketplaceBidTooLow(uint256 minimum, uint256 sent);
    /// @notice A bid at or above the buy-now price: use {buyToken} instead.
    error MarketplaceBidAtOrAboveBuyNow(uint256 buyNowPrice, uint256 sent);
    /// @notice The auction has no top bid.
    error MarketplaceNoBid(uint256 tokenId);
    /// @notice The auction has a top bid.
    error MarketplaceAuctionHasBid(uint256 tokenId);
    /// @notice The auction ended with a top bid: it can only be settled (or accepted), not changed or transferred.
    error MarketplaceAuctionAwaitingSettlement(uint256 tokenId);
    /// @notice The service fee is above {MAX_SERVICE_FEE_BPS}.
    error MarketplaceFeeTooHigh(uint96 feeBps);
    /// @notice The zero address is not allowed here.
    error MarketplaceZeroAddress();
    /// @notice The market's own address cannot be the admin (it could never withdraw the fees).
    error MarketplaceSelfAdmin();
    /// @notice Only the proposed admin can accept the admin role.
    error MarketplaceNotPendingAdmin(address caller);
    /// @notice The account has no credits to withdraw.
    error MarketplaceNoCredits(address account);
    /// @notice Sending the withdrawn credits failed.
    error MarketplaceWithdrawFailed(address recipient, uint256 amount);
    /// @notice The token is in an auction: no offer can be made or accepted (bid instead).
    error MarketplaceInAuction(uint256 tokenId);
    /// @notice The owner cannot make an offer on its own token, nor accept its own offer.
    error MarketplaceOwnerCannotOffer(uint256 tokenId);
    /// @notice An offer must expire in the future.
    error MarketplaceInvalidExpiry(uint64 expiresAt);
    /// @notice The account has no offer on the token.
    error MarketplaceNoOffer(uint256 tokenId, address offerer);
    /// @notice The offer expired: it can be cancelled or rejected, no longer accepted.
    error MarketplaceOfferExpired(uint256 tokenId, address offerer, uint64 expiresAt);
    /// @notice The offer's amount is not the one the owner meant to accept (it was replaced meanwhile).
    error MarketplaceOfferChanged(uint256 expected, uint256 amount);
    /// @notice A cart needs 1 to {MAX_CART_ITEMS} items and one seen price per item.
    error MarketplaceInvalidCart();
    /// @notice An asking price (fixed or buy-now) is above {MAX_PRICE}.
    error MarketplacePriceTooHigh(uint256 price);
    /// @notice An offer can stay acceptable at most {MAX_OFFER_DURATION} from the moment it is made.
    error MarketplaceOfferTooLong(uint64 expiresAt, uint256 latest);
    /// @notice The seller would receive less than the least it accepts (the offer's fee or royalties differ
    /// from what it was shown).
    error MarketplaceProceedsTooLow(uint256 minProceeds, uint256 proceeds);
    /// @notice Only a moderator can do this.
    error MarketplaceNotModerator(address caller);
    /// @notice The token's sale is held until `until` (a stolen-item hold): no listing, purchase, bid,
    /// acceptance, settlement or offer before then.
    error MarketplaceSaleHeld(uint256 tokenId, uint64 until);
    /// @notice A hold must end after now and at most at `latest`: {MAX_HOLD} after the hold began
    /// without evidence, {MAX_HOLD_WITH_EVIDENCE} from now with it.
    error MarketplaceInvalidHoldEnd(uint64 until, uint256 latest);
    /// @notice The token's sale is not held.
    error MarketplaceNotHeld(uint256 tokenId);
    /// @notice A moderator cannot hold or release the sale of its own token.
    error MarketplaceModeratorIsOwner(uint256 tokenId);

    // ------------------------------------------------------------------------------------------
    // Construction and admin
    // ------------------------------------------------------------------------------------------

    /// @notice Deploys the marketplace; the deployer is the first admin and the fee is 5%.
    constructor() ERC721("NFT Marketplace", "NFTM") {
        _admin = msg.sender;
        emit AdminChanged(msg.sender);
        _serviceFeeBps = DEFAULT_SERVICE_FEE_BPS;
        emit ServiceFeeChanged(DEFAULT_SERVICE_FEE_BPS);
        // The market's first creation (nonce 1): {_splitFactory} derives its address from that.
        new RoyaltySplitFactory();
    }

    /// @notice Sets the service fee taken from every sale and paid to the admin.
    /// @param feeBps The new fee in basis points, at most {MAX_SERVICE_FEE_BPS}.
    function setServiceFeeBps(uint96 feeBps) external {
        _onlyAdmin();
        if (feeBps > MAX_SERVICE_FEE_BPS) revert MarketplaceFeeTooHigh(feeBps);
        _serviceFeeBps = feeBps;
        emit ServiceFeeChanged(feeBps);
    }

    /// @notice First step of handing the admin role (fee setting and fee income) to another account:
    /// proposes it; the role moves when that account calls {acceptAdmin}, so a mistyped address never
    /// takes it. A new proposal replaces the pending one, and proposing zero withdraws it.
    /// @param newAdmin The proposed admin, not the market itself; zero to withdraw the proposal.
    function proposeAdmin(address newAdmin) external {
        _onlyAdmin();
        if (newAdmin == address(this)) revert MarketplaceSelfAdmin();
        _pendingAdmin = newAdmin;
        emit AdminProposed(newAdmin);
    }

    /// @notice Second step: the proposed admin takes the admin role (and the fee of every later sale).
    function acceptAdmin() external {
        if (msg.sender != _pendingAdmin || msg.sender == address(0)) revert MarketplaceNotPendingAdmin(msg.sender);
        _admin = msg.sender;
        _pendingAdmin = address(0);
        emit AdminChanged(msg.sender);
    }

    /// @notice Grants or revokes the moderator role: holding and releasing tokens' sales.
    /// @param account The account, not zero.
    /// @param enabled True to grant, false to revoke.
    function setModerator(address account, bool enabled) external {
        _onlyAdmin();
        if (account == address(0)) revert MarketplaceZeroAddress();
        _moderators[account] = enabled;
        emit ModeratorSet(account, enabled);
    }

    // ------------------------------------------------------------------------------------------
    // Stolen-item holds
    // ------------------------------------------------------------------------------------------

    /**
     * @notice Holds a token's sale on this market until `until` (a token reported stolen), or renews
     * the hold (a new end, earlier or later). Ends the token's listing and open auction, refunding its
     * top bidder (even one waiting for settlement: a held sale must not complete). Until the end no one
     * can list, buy, bid on, accept a bid or an offer for, settle or make an offer on the token, and a
     * cart skips it; transfers, burning, rejecting and cancelling offers stay free. The hold follows
     * the token through transfers.
     * @dev Without evidence the hold ends at most {MAX_HOLD} after it began (renewals included); with
     * evidence at most {MAX_HOLD_WITH_EVIDENCE} from now. Any end after now is allowed.
     * @param tokenId The token, existing and not the caller's.
     * @param until The end (unix seconds).
     * @param evidence The hash of the note of evidence (a police report), or zero.
     */
    function holdSale(uint256 tokenId, uint64 until, bytes32 evidence) external nonReentrant {
        _checkModeration(tokenId);
        Hold storage hold = _holds[tokenId];
        // casting to 'uint64' is safe because timestamps stay far below 2**64 seconds
        // forge-lint: disable-next-line(unsafe-typecast)
        uint64 since = block.timestamp < hold.until ? hold.since : uint64(block.timestamp);
        uint256 latest = evidence == bytes32(0) ? since + MAX_HOLD : block.timestamp + MAX_HOLD_WITH_EVIDENCE;
        if (until <= block.timestamp || until > latest) revert MarketplaceInvalidHoldEnd(until, latest);
        hold.until = until;
        hold.since = since;
        emit SaleHeld(tokenId, msg.sender, until, evidence);

        if (_tokens[tokenId].saleType == SaleType.NotForSale) return;
        (address refundTo, uint256 refund) = _clearListing(tokenId);
        emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);
        _push(refundTo, refund);
    }

    /**
     * @notice Ends a hold before its time: the token can be listed, bought and offered for again.
     * @param tokenId The token, held and not the caller's.
     */
    function releaseSale(uint256 tokenId) external {
        _checkModeration(tokenId);
        if (block.timestamp >= _holds[tokenId].until) revert MarketplaceNotHeld(tokenId);
        delete _holds[tokenId];
        emit SaleReleased(tokenId, msg.sender);
    }

    // ------------------------------------------------------------------------------------------
    // Minting and listing
    // ------------------------------------------------------------------------------------------

    /**
     * @notice Mints a token to the caller, with its royalties, and lists it as asked.
     * @param uri The metadata URI (the spec's tokenURI), not empty.
     * @param saleType NotForSale, FixedPrice or Auction.
     * @param royaltyReceivers At most 2 distinct receivers, neither zero nor the market itself.
     * @param royaltyBps Their shares in basis points, each > 0, summing to at most {MAX_ROYALTY_BPS}.
     * @param auctionEndTime Auction only: the end, in the future and at most 168 hours ahead; else 0.
     * @param basePrice Auction only: the minimum first bid, > 0; else 0.
     * @param price FixedPrice: the price, > 0. Auction: the buy-now price, > basePrice. NotForSale: 0.
     * @return tokenId The new token id (ids start at 1).
     */
    function mint(
        string calldata uri,
        SaleType saleType,
        address[] calldata royaltyReceivers,
        uint96[] calldata royaltyBps,
        uint64 auctionEndTime,
        uint256 basePrice,
        uint256 price
    ) external returns (uint256 tokenId) {
        if (bytes(uri).length == 0) revert MarketplaceEmptyTokenURI();
        _checkRoyalties(royaltyReceivers, royaltyBps);
        _checkSaleParameters(saleType, price, auctionEndTime, basePrice);

        tokenId = ++_lastTokenId;
        _tokens[tokenId].mintedBy = msg.sender;
        _tokenUris[tokenId] = uri;
        Royalty[] storage rows = _royalties[tokenId];
        for (uint256 i = 0; i < royaltyReceivers.length; ++i) {
            rows.push(Royalty({receiver: royaltyReceivers[i], bps: royaltyBps[i]}));
        }
        _mint(msg.sender, tokenId);
        emit Minted(tokenId, msg.sender, uri, royaltyReceivers, royaltyBps);

        if (saleType != SaleType.NotForSale) _list(tokenId, saleType, price, auctionEndTime, basePrice);
    }

    /**
     * @notice Puts a token on sale, changes its sale, or stops it. Any open auction is ended first
     * (its top bidder refunded), and a new auction always gets a new auction id. A new sale takes the
     * service fee of this moment.
     * @dev Not allowed once an auction has passed its end with a top bid: that bid has won and the
     * auction can only be settled ({settleAuction}) or accepted.
     * @param tokenId The token, owned by the caller.
     * @param saleType The new sale type.
     * @param price FixedPrice: the price, > 0. Auction: the buy-now price, > basePrice. NotForSale: 0.
     * @param auctionEndTime Auction only: the end, in the future and at most 168 hours ahead; else 0.
     * @param basePrice Auction only: the minimum first bid, > 0; else 0.
     */
    function toggleForSale(uint256 tokenId, SaleType saleType, uint256 price, uint64 auctionEndTime, uint256 basePrice)
        external
        nonReentrant
    {
        _onlyOwner(tokenId);
        _checkSaleParameters(saleType, price, auctionEndTime, basePrice);
        if (saleType != SaleType.NotForSale) _checkNotHeld(tokenId);
        _checkNotAwaitingSettlement(tokenId);

        (address refundTo, uint256 refund) = _clearListing(tokenId);
        if (saleType == SaleType.NotForSale) emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);
        else _list(tokenId, saleType, price, auctionEndTime, basePrice);

        _push(refundTo, refund);
    }

    /**
     * @notice Changes the asking price: the fixed price, or the buy-now price of a running auction
     * that has no bid yet (then it must stay above the base price).
     * @param tokenId The token, owned by the caller.
     * @param newPrice The new price, > 0.
     */
    function changeTokenPrice(uint256 tokenId, uint256 newPrice) external {
        _onlyOwner(tokenId);
        if (newPrice == 0) revert MarketplaceZeroPrice();
        _checkPrice(newPrice);
        Token storage token = _tokens[tokenId];
        SaleType saleType = token.saleType;
        if (saleType == SaleType.NotForSale) _revertNotForSale(tokenId);
        if (saleType == SaleType.Auction) {
            Auction storage auction = _auctions[token.auctionId];
            if (block.timestamp >= auction.endTime) revert MarketplaceAuctionExpired(tokenId, auction.endTime);
            if (auction.highestBidder != address(0)) revert MarketplaceAuctionHasBid(tokenId);
            if (newPrice <= auction.lowestBidAmount) {
                revert MarketplaceBuyNowNotAboveBase(auction.lowestBidAmount, newPrice);
            }
            auction.buyNowPrice = newPrice;
        }
        // casting to 'uint96' is safe because _checkPrice bounds it
        // forge-lint: disable-next-line(unsafe-typecast)
        token.price = uint96(newPrice);
        emit PriceChanged(tokenId, newPrice);
    }

    /**
     * @notice Ends an auction that reached its end time without any bid; the token is then not for sale.
     * @param tokenId The token, owned by the caller.
     */
    function closeAuction(uint256 tokenId) external {
        _onlyOwner(tokenId);
        Auction storage auction = _openAuction(tokenId);
        if (block.timestamp < auction.endTime) revert MarketplaceAuctionNotExpired(tokenId, auction.endTime);
        if (auction.highestBidder != address(0)) revert MarketplaceAuctionHasBid(tokenId);
        // No bid: nothing to refund.
        _clearListing(tokenId);
        emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);
    }

    /**
     * @notice Burns a token, with its royalties and metadata. Only when it is not for sale.
     * @param tokenId The token, owned by the caller.
     */
    function burn(uint256 tokenId) external {
        _onlyOwner(tokenId);
        if (_tokens[tokenId].saleType != SaleType.NotForSale) revert MarketplaceForSale(tokenId);
        _burn(tokenId);
    }

    // ------------------------------------------------------------------------------------------
    // Buying and bidding
    // ------------------------------------------------------------------------------------------

    /**
     * @notice Buys a token at its fixed price, or at the buy-now price of a running auction (the top
     * bidder, if any, is refunded). msg.value must equal the price exactly. The token is delivered
     * with the ERC-721 safe-transfer check, so a contract buyer must implement onERC721Received.
     * @param tokenId The token.
     */
    function buyToken(uint256 tokenId) external payable nonReentrant {
        address seller = _requireExists(tokenId);
        if (msg.sender == seller) revert MarketplaceOwnerCannotBuy(tokenId);
        Token storage token = _tokens[tokenId];
        SaleType saleType = token.saleType;
        if (saleType == SaleType.NotForSale) _revertNotForSale(tokenId);

        uint256 price = token.price;
        if (msg.value != price) revert MarketplaceWrongValue(price, msg.value);
        uint256 feeBps = token.feeBps;

        uint256 auctionId;
        address refundTo;
        uint256 refund;
        if (saleType == SaleType.Auction) {
            auctionId = token.auctionId;
            Auction storage auction = _auctions[auctionId];
            if (block.timestamp >= auction.endTime) revert MarketplaceAuctionExpired(tokenId, auction.endTime);
            refundTo = auction.highestBidder;
            refund = auction.highestBid;
            _totalEscrowed -= refund;
            auction.highestBidder = msg.sender;
            auction.highestBid = price;
            auction.ended = true;
            auction.sold = true;
            if (refundTo != address(0)) emit BidRefunded(tokenId, auctionId, refundTo, refund);
            emit AuctionEnded(tokenId, auctionId, msg.sender, price);
        }
        token.saleType = SaleType.NotForSale;
        token.feeBps = 0;
        token.price = 0;
        emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);

        _transfer(seller, msg.sender, tokenId);
        _distribute(tokenId, auctionId, seller, msg.sender, price, feeBps, _noLedger());
        _push(refundTo, refund);
        ERC721Utils.checkOnERC721Received(msg.sender, seller, msg.sender, tokenId, "");
    }

    /**
     * @notice Bids in a running auction; the ether is escrowed and the previous top bid refunded.
     * The first bid must be at least the base price; later ones at least the top bid plus 5% (rounded
     * up, at least 1 wei), see {minimumBid}. A bid must stay below the buy-now price (use {buyToken}).
     * A bid less than 10 minutes before the end moves the end to 10 minutes after the bid.
     * @param tokenId The token.
     */
    function bid(uint256 tokenId) external payable nonReentrant {
        address owner = _requireExists(tokenId);
        if (msg.sender == owner) revert MarketplaceOwnerCannotBid(tokenId);
        Token storage token = _tokens[tokenId];
        if (token.saleType != SaleType.Auction) _revertNotAuction(tokenId);
        uint256 auctionId = token.auctionId;
        Auction storage auction = _auctions[auctionId];
        uint64 endTime = auction.endTime;
        if (block.timestamp >= endTime) revert MarketplaceAuctionExpired(tokenId, endTime);
        if (msg.value >= auction.buyNowPrice) revert MarketplaceBidAtOrAboveBuyNow(auction.buyNowPrice, msg.value);

        address previousBidder = auction.highestBidder;
        uint256 previousBid = auction.highestBid;
        uint256 minimum = previousBidder == address(0) ? auction.lowestBidAmount : _raise(previousBid);
        if (msg.value < minimum) revert MarketplaceBidTooLow(minimum, msg.value);

        auction.highestBidder = msg.sender;
        auction.highestBid = msg.value;
        _totalEscrowed = _totalEscrowed + msg.value - previousBid;
        (endTime,) = _extendIfLate(auction);
        emit BidPlaced(tokenId, auctionId, msg.sender, msg.value, endTime);
        if (previousBidder != address(0)) emit BidRefunded(tokenId, auctionId, previousBidder, previousBid);

        _push(previousBidder, previousBid);
    }

    /**
     * @notice The owner accepts the top bid (selling the token to the top bidder, before or after the
     * end) or rejects it (refunding it; only before the end, and the auction stays open until then).
     * A rejection less than 10 minutes before the end moves the end to 10 minutes after it, as a late
     * bid does, so that bidders can answer it.
     * @param tokenId The token, owned by the caller.
     * @param accept True to accept, false to reject.
     */
    function acceptOffer(uint256 tokenId, bool accept) external nonReentrant {
        address owner = _onlyOwner(tokenId);
        Auction storage auction = _openAuction(tokenId);
        address bidder = auction.highestBidder;
        if (bidder == address(0)) revert MarketplaceNoBid(tokenId);
        if (accept) {
            _settle(tokenId, owner);
            return;
        }
        if (block.timestamp >= auction.endTime) revert MarketplaceAuctionExpired(tokenId, auction.endTime);
        uint256 auctionId = _tokens[tokenId].auctionId;
        uint256 amount = auction.highestBid;
        auction.highestBidder = address(0);
        auction.highestBid = 0;
        _totalEscrowed -= amount;
        emit BidRejected(tokenId, auctionId, bidder, amount);
        (uint64 endTime, bool extended) = _extendIfLate(auction);
        if (extended) emit AuctionExtended(tokenId, auctionId, endTime);
        _push(bidder, amount);
    }

    /**
     * @notice Settles an auction past its end time: the top bidder gets the token, the seller, the
     * royalty receivers and the admin get paid. Anyone can call it.
     * @param tokenId The token.
     */
    function settleAuction(uint256 tokenId) external nonReentrant {
        address owner = _requireExists(tokenId);
        Auction storage auction = _openAuction(tokenId);
        if (block.timestamp < auction.endTime) revert MarketplaceAuctionNotExpired(tokenId, auction.endTime);
        if (auction.highestBidder == address(0)) revert MarketplaceNoBid(tokenId);
        _settle(tokenId, owner);
    }

    /**
     * @notice Buys several fixed-price tokens at once, each at most at the price the buyer saw.
     * msg.value must equal the sum of the seen prices. An item no longer on sale at a fixed price, or
     * now priced above its seen price, is skipped ({CartItemSkipped}); an item whose price went down
     * is bought at its new price. Everything not spent is refunded in the same transaction (credited
     * if the buyer refuses it). Each purchase pays as {buyToken} does, but the payouts are summed per
     * payee and pushed once at the end. Tokens are delivered with the safe-transfer check.
     * @param tokenIds The tokens, 1 to {MAX_CART_ITEMS}.
     * @param seenPrices The price the buyer saw for each token.
     */
    function buyTokens(uint256[] calldata tokenIds, uint256[] calldata seenPrices) external payable nonReentrant {
        uint256 count = tokenIds.length;
        if (count == 0 || count > MAX_CART_ITEMS || seenPrices.length != count) revert MarketplaceInvalidCart();
        uint256 total;
        for (uint256 i = 0; i < count; ++i) {
            total += seenPrices[i];
        }
        if (msg.value != total) revert MarketplaceWrongValue(total, msg.value);

        // At most one payee per item's seller and royalty receivers, plus the admin.
        uint256 rows = 1 + count * (1 + MAX_ROYALTY_RECEIVERS);
        Ledger memory ledger = Ledger({payees: new address[](rows), count: 0});
        address[] memory sellers = new address[](count); // zero for a skipped item
        uint256 spent;
        uint256 bought;
        for (uint256 i = 0; i < count; ++i) {
            (address seller, uint256 price) = _buyCartItem(tokenIds[i], seenPrices[i], ledger);
            if (seller == address(0)) continue;
            sellers[i] = seller;
            spent += price;
            bought += 1;
        }
        emit CartPurchased(msg.sender, count, bought, spent, msg.value - spent);

        for (uint256 j = 0; j < ledger.count; ++j) {
            address payee = ledger.payees[j];
            uint256 slot = _owedSlot(payee);
            uint256 owed;
            assembly ("memory-safe") {
                owed := tload(slot)
                tstore(slot, 0)
            }
            _push(payee, owed);
        }
        _push(msg.sender, msg.value - spent);
        // The safe-transfer checks last, after every payout, as in {buyToken}.
        _checkReceipts(tokenIds, sellers);
    }

    // ------------------------------------------------------------------------------------------
    // Offers
    // ------------------------------------------------------------------------------------------

    /**
     * @notice Offers msg.value for a token that is not in an auction (listed at a fixed price or not
     * for sale); the ether is escrowed until the offer is accepted, rejected or cancelled. Each account
     * has one offer per token: a new one replaces it and the old amount is refunded. The offer takes
     * the service fee of this moment, which its sale pays. Once the offerer owns the token, by any
     * transfer, the offer is refunded ({OfferCancelled}).
     * @param tokenId The token, not the caller's.
     * @param expiresAt When the offer stops being acceptable (unix seconds, in the future, at most
     * {MAX_OFFER_DURATION} from now).
     */
    function makeOffer(uint256 tokenId, uint64 expiresAt) external payable nonReentrant {
        address owner = _requireExists(tokenId);
        if (msg.sender == owner) revert MarketplaceOwnerCannotOffer(tokenId);
        if (_tokens[tokenId].saleType == SaleType.Auction) revert MarketplaceInAuction(tokenId);
        _checkNotHeld(tokenId);
        if (msg.value == 0) revert MarketplaceZeroPrice();
        if (expiresAt <= block.timestamp) revert MarketplaceInvalidExpiry(expiresAt);
        uint256 latest = block.timestamp + MAX_OFFER_DURATION;
        if (expiresAt > latest) revert MarketplaceOfferTooLong(expiresAt, latest);

        Offer storage offer = _offers[tokenId][msg.sender];
        uint256 replaced = offer.amount;
        if (replaced == 0) _tokens[tokenId].openOffers += 1;
        uint96 feeBps = _serviceFeeBps;
        // casting to 'uint176' is safe because no amount of ether comes near 2**176 wei; to 'uint16'
        // because the fee is at most MAX_SERVICE_FEE_BPS (1000)
        // forge-lint: disable-next-line(unsafe-typecast)
        _offers[tokenId][msg.sender] = Offer({amount: uint176(msg.value), expiresAt: expiresAt, feeBps: uint16(feeBps)});
        _totalOffers = _totalOffers + msg.value - replaced;
        emit OfferMade(tokenId, msg.sender, msg.value, expiresAt, feeBps, replaced);

        _push(msg.sender, replaced);
    }

    /**
     * @notice Withdraws the caller's offer on a token and refunds it: at any time, expired or not,
     * and also after the token was burned (an offer on a burned token can never be accepted).
     * @param tokenId The token.
     */
    function cancelOffer(uint256 tokenId) external nonReentrant {
        uint256 amount = _takeOffer(tokenId, msg.sender).amount;
        emit OfferCancelled(tokenId, msg.sender, amount);
        _push(msg.sender, amount);
    }

    /**
     * @notice The owner rejects an offer on its token (expired or not); the offerer is refunded.
     * @param tokenId The token, owned by the caller.
     * @param offerer The offerer.
     */
    function rejectOfferFrom(uint256 tokenId, address offerer) external nonReentrant {
        _onlyOwner(tokenId);
        uint256 amount = _takeOffer(tokenId, offerer).amount;
        emit OfferRejected(tokenId, offerer, amount);
        _push(offerer, amount);
    }

    /**
     * @notice The owner accepts an offer that has not expired: the token goes to the offerer, any
     * fixed-price listing is cleared, and the offer pays the service fee (its snapshot), the royalties
     * and the seller exactly as a purchase does. Not while the token is in an auction.
     * The owner names the amount it accepts and the least it receives, so an offer replaced meanwhile
     * (say, by a lower one, or by the same amount at a higher fee) makes the call revert instead of
     * selling for less. The offerer gets the token by a plain
     * transfer, as an auction's winner does.
     * @param tokenId The token, owned by the caller.
     * @param offerer The offerer.
     * @param expectedAmount The offer's amount as the owner saw it.
     * @param minProceeds The least the seller accepts to receive after the offer's fee and the royalties
     * (the net it was shown); less reverts with {MarketplaceProceedsTooLow}.
     */
    function acceptOfferFrom(uint256 tokenId, address offerer, uint256 expectedAmount, uint256 minProceeds)
        external
        nonReentrant
    {
        address seller = _onlyOwner(tokenId);
        if (offerer == seller) revert MarketplaceOwnerCannotOffer(tokenId);
        Token storage token = _tokens[tokenId];
        if (token.saleType == SaleType.Auction) revert MarketplaceInAuction(tokenId);
        _checkNotHeld(tokenId);
        Offer memory offer = _takeOffer(tokenId, offerer);
        if (offer.amount != expectedAmount) revert MarketplaceOfferChanged(expectedAmount, offer.amount);
        if (block.timestamp >= offer.expiresAt) revert MarketplaceOfferExpired(tokenId, offerer, offer.expiresAt);
        uint256 proceeds = _sellerProceeds(tokenId, expectedAmount, offer.feeBps);
        if (proceeds < minProceeds) revert MarketplaceProceedsTooLow(minProceeds, proceeds);
        emit OfferAccepted(tokenId, offerer, seller, expectedAmount);

        if (token.saleType != SaleType.NotForSale) {
            token.saleType = SaleType.NotForSale;
            token.feeBps = 0;
            token.price = 0;
            emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);
        }
        _transfer(seller, offerer, tokenId);
        _distribute(tokenId, 0, seller, offerer, expectedAmount, offer.feeBps, _noLedger());
    }

    // ------------------------------------------------------------------------------------------
    // Credits
    // ------------------------------------------------------------------------------------------

    /// @notice Withdraws all the caller's credits (payouts whose push failed) to the caller, with all gas.
    function withdrawCredits() external nonReentrant {
        _withdrawCredits(payable(msg.sender));
    }

    /// @notice Withdraws all the caller's credits to another address (for accounts that cannot take ether).
    /// @param recipient Where to send them, not zero.
    function withdrawCreditsTo(address payable recipient) external nonReentrant {
        if (recipient == address(0)) revert MarketplaceZeroAddress();
        _withdrawCredits(recipient);
    }

    // ------------------------------------------------------------------------------------------
    // ERC-721 transfers
    // ------------------------------------------------------------------------------------------

    /// @notice ERC-721 transfer. It clears the token's listing and open auction, refunding the top bidder.
    /// It is refused while an auction awaits settlement. Guarded against reentrancy (it may pay a refund);
    /// `safeTransferFrom` goes through it too.
    /// @param from The current owner.
    /// @param to The new owner.
    /// @param tokenId The token.
    function transferFrom(address from, address to, uint256 tokenId) public override nonReentrant {
        super.transferFrom(from, to, tokenId);
    }

    // ------------------------------------------------------------------------------------------
    // Views
    // ------------------------------------------------------------------------------------------

    /// @notice The admin: sets the fee and receives it.
    /// @return The admin's address.
    function admin() external view returns (address) {
        return _admin;
    }

    /// @notice The admin proposed by {proposeAdmin} and not yet accepted (zero when none).
    /// @return The proposed admin's address.
    function pendingAdmin() external view returns (address) {
        return _pendingAdmin;
    }

    /// @notice Whether an account holds the moderator role.
    /// @param account The account.
    /// @return True for a moderator.
    function isModerator(address account) external view returns (bool) {
        return _moderators[account];
    }

    /// @notice When the hold on a token's sale ends: the sale is held while block.timestamp is below
    /// it (0 or a past time: not held).
    /// @param tokenId The token.
    /// @return The end of the last hold (0 when never held or released).
    function saleHeldUntil(uint256 tokenId) external view returns (uint64) {
        return _holds[tokenId].until;
    }

    /// @notice The service fee a sale starting now takes, in basis points.
    /// @return The fee.
    function serviceFeeBps() external view returns (uint96) {
        return _serviceFeeBps;
    }

    /// @notice The service fee the token's current sale pays: the fee when the sale started (0 when
    /// the token is not for sale). Reverts for a token that does not exist.
    /// @param tokenId The token.
    /// @return The fee in basis points.
    function serviceFeeBpsOf(uint256 tokenId) external view returns (uint96) {
        _requireExists(tokenId);
        return _tokens[tokenId].feeBps;
    }

    /// @notice An account's credits: payouts whose push failed, waiting to be withdrawn.
    /// @param account The account.
    /// @return The amount it can withdraw.
    function creditsOf(address account) external view returns (uint256) {
        return _credits[account];
    }

    /// @notice The sum of all unwithdrawn credits.
    /// @return The total.
    function totalCredits() external view returns (uint256) {
        return _totalCredits;
    }

    /// @notice The sum of all escrowed top bids of open auctions.
    /// @return The total.
    function totalEscrowed() external view returns (uint256) {
        return _totalEscrowed;
    }

    /// @notice The sum of all escrowed offers (live or expired, not yet accepted, rejected or cancelled).
    /// @return The total.
    function totalOffers() external view returns (uint256) {
        return _totalOffers;
    }

    /// @notice An account's offer on a token (all zero when there is none). It stays readable, and
    /// cancellable, after the token is burned.
    /// @param tokenId The token.
    /// @param offerer The offerer.
    /// @return amount The escrowed amount.
    /// @return expiresAt When it stops being acceptable.
    /// @return feeBps The service fee its sale pays (snapshotted when it was made).
    function offerOf(uint256 tokenId, address offerer)
        external
        view
        returns (uint256 amount, uint64 expiresAt, uint96 feeBps)
    {
        Offer storage offer = _offers[tokenId][offerer];
        return (offer.amount, offer.expiresAt, offer.feeBps);
    }

    /// @notice The last token id minted (ids start at 1; burned ids are not reused).
    /// @return The id, 0 before the first mint.
    function lastTokenId() external view returns (uint256) {
        return _lastTokenId;
    }

    /// @notice The last auction id started (ids start at 1).
    /// @return The id, 0 before the first auction.
    function lastAuctionId() external view returns (uint256) {
        return _lastAuctionId;
    }

    /// @notice Everything about a token. Reverts for a token that does not exist.
    /// @param tokenId The token.
    /// @return info The token's fields.
    function tokenInfo(uint256 tokenId) external view returns (TokenInfo memory info) {
        address owner = _requireExists(tokenId);
        Token storage token = _tokens[tokenId];
        info = TokenInfo({
            tokenId: tokenId,
            tokenURI: _tokenUris[tokenId],
            mintedBy: token.mintedBy,
            currentOwner: owner,
            previousOwner: token.previousOwner,
            price: token.price,
            numberOfTransfers: token.numberOfTransfers,
            forSale: token.saleType != SaleType.NotForSale,
            saleType: token.saleType,
            auctionId: token.auctionId,
            numberOfRoyalties: _royalties[tokenId].length
        });
    }

    /// @notice The token's open auction, or its last one; all zero if it was never auctioned.
    /// Reverts for a token that does not exist.
    /// @param tokenId The token.
    /// @return info The auction's fields.
    function auctionInfo(uint256 tokenId) external view returns (AuctionInfo memory info) {
        _requireExists(tokenId);
        info = auctionById(_tokens[tokenId].auctionId);
    }

    /// @notice An auction by id (all zero for an unknown id).
    /// @param auctionId The auction.
    /// @return info The auction's fields.
    function auctionById(uint256 auctionId) public view returns (AuctionInfo memory info) {
        Auction storage auction = _auctions[auctionId];
        if (auction.tokenId == 0) return info;
        info = AuctionInfo({
            auctionId: auctionId,
            tokenId: auction.tokenId,
            endTime: auction.endTime,
            lowestBidAmount: auction.lowestBidAmount,
            buyNowPrice: auction.buyNowPrice,
            ended: auction.ended,
            highestBid: auction.highestBid,
            highestBidder: auction.highestBidder,
            sold: auction.sold
        });
    }

    /// @notice The smallest bid {bid} accepts now: the base price, or the top bid plus the minimum raise.
    /// Reverts unless the token is in an auction.
    /// @param tokenId The token.
    /// @return The minimum bid (a bid must also stay below the buy-now price).
    function minimumBid(uint256 tokenId) external view returns (uint256) {
        _requireExists(tokenId);
        Auction storage auction = _openAuction(tokenId);
        return auction.highestBidder == address(0) ? auction.lowestBidAmount : _raise(auction.highestBid);
    }

    /// @notice Every royalty receiver of a token and its share in basis points (empty for an unknown token).
    /// @param tokenId The token.
    /// @return receivers The receivers.
    /// @return bps Their shares.
    function royaltiesOf(uint256 tokenId) external view returns (address[] memory receivers, uint96[] memory bps) {
        Royalty[] storage rows = _royalties[tokenId];
        receivers = new address[](rows.length);
        bps = new uint96[](rows.length);
        for (uint256 i = 0; i < rows.length; ++i) {
            receivers[i] = rows[i].receiver;
            bps[i] = rows[i].bps;
        }
    }

    /// @notice ERC-2981. A token can have two receivers but ERC-2981 names one: for a token with two,
    /// the receiver is their {RoyaltySplit} (see {royaltySplitOf}), from which each receiver takes its
    /// share, so any marketplace that pays royaltyInfo pays both. The amount is the total royalty of
    /// all rows (as this market pays it: each row's share rounded down). This market pays each receiver
    /// directly. (zero, 0) when the token has no royalty.
    /// @param tokenId The token.
    /// @param salePrice The sale price.
    /// @return receiver The only receiver, or the split of the two.
    /// @return royaltyAmount The total royalty for that price.
    function royaltyInfo(uint256 tokenId, uint256 salePrice)
        external
        view
        returns (address receiver, uint256 royaltyAmount)
    {
        Royalty[] storage rows = _royalties[tokenId];
        uint256 count = rows.length;
        if (count == 0) return (address(0), 0);
        receiver = count == 1 ? rows[0].receiver : royaltySplitOf(tokenId);
        for (uint256 i = 0; i < count; ++i) {
            royaltyAmount += (salePrice * rows[i].bps) / BPS_DENOMINATOR;
        }
    }

    /// @notice The {RoyaltySplit} that {royaltyInfo} names for a token with two royalty receivers
    /// (shared by every token with the same receivers and shares; created by anyone with
    /// {RoyaltySplitFactory.create} when first needed); zero for a token with fewer receivers or that
    /// does not exist.
    /// @param tokenId The token.
    /// @return The split's address.
    function royaltySplitOf(uint256 tokenId) public view returns (address) {
        Royalty[] storage rows = _royalties[tokenId];
        if (rows.length != 2) return address(0);
        return _splitFactory().splitOf(rows[0].receiver, rows[0].bps, rows[1].receiver, rows[1].bps);
    }

    /// @notice The factory of this market's royalty splits.
    /// @return The factory's address.
    function royaltySplitFactory() external view returns (address) {
        return address(_splitFactory());
    }

    /// @notice The token's metadata URI. Reverts for a token that does not exist.
    /// @param tokenId The token.
    /// @return The URI given at mint.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireExists(tokenId);
        return _tokenUris[tokenId];
    }

    /// @notice ERC-165: true for ERC-165, ERC-721, ERC-721 Metadata and ERC-2981.
    /// @param interfaceId The interface id.
    /// @return Whether it is supported.
    function supportsInterface(bytes4 interfaceId) public view override(ERC721, IERC165) returns (bool) {
        return interfaceId == type(IERC2981).interfaceId || super.supportsInterface(interfaceId);
    }

    // ------------------------------------------------------------------------------------------
    // Internals
    // ------------------------------------------------------------------------------------------

    /// @dev Keeps the market state in step with ownership. Every owner change that does not come from
    /// a sale (sales clear the listing first) clears the listing and ends an open auction, refunding
    /// its top bidder; a burn deletes the token's market state. Whatever the path (purchase, cart,
    /// auction, accepted offer, plain transfer), an offer the new owner had made on the token is
    /// refunded as a cancellation: an owner's offer could otherwise stay escrowed and later buy the
    /// token back at its old amount. A mint needs no check: offers need an existing token and ids are
    /// never reused.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        Token storage token = _tokens[tokenId];
        bool listed = token.saleType != SaleType.NotForSale;
        if (listed) _checkNotAwaitingSettlement(tokenId);

        from = super._update(to, tokenId, auth);
        if (from == address(0)) return from; // a mint

        address refundTo;
        uint256 refund;
        if (listed) {
            (refundTo, refund) = _clearListing(tokenId);
            emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);
        }
        uint256 heldOffer;
        if (to == address(0)) {
            delete _tokens[tokenId];
            delete _royalties[tokenId];
            delete _tokenUris[tokenId];
        } else {
            token.previousOwner = from;
            token.numberOfTransfers += 1;
            if (token.openOffers != 0) heldOffer = _offers[tokenId][to].amount;
            if (heldOffer != 0) {
                delete _offers[tokenId][to];
                token.openOffers -= 1;
                _totalOffers -= heldOffer;
                emit OfferCancelled(tokenId, to, heldOffer);
            }
        }
        _push(refundTo, refund);
        _push(to, heldOffer);
    }

    /// @dev Sells the token of an open auction to its top bidder at the top bid.
    function _settle(uint256 tokenId, address seller) private {
        Token storage token = _tokens[tokenId];
        uint256 auctionId = token.auctionId;
        Auction storage auction = _auctions[auctionId];
        address buyer = auction.highestBidder;
        uint256 price = auction.highestBid;
        _totalEscrowed -= price;
        auction.ended = true;
        auction.sold = true;
        emit AuctionEnded(tokenId, auctionId, buyer, price);
        uint256 feeBps = token.feeBps;
        token.saleType = SaleType.NotForSale;
        token.feeBps = 0;
        token.price = 0;
        emit SaleUpdated(tokenId, SaleType.NotForSale, 0, 0, 0, 0);

        // A plain transfer: the winner's code must not be able to block the settlement.
        _transfer(seller, buyer, tokenId);
        _distribute(tokenId, auctionId, seller, buyer, price, feeBps, _noLedger());
    }

    /// @dev Splits a sale price into royalties, the service fee (at `feeBps`, the sale's snapshot) and
    /// the seller's proceeds, and pays them (or adds them to a cart's `ledger`). Each share is rounded
    /// down; the seller gets the rest, so the parts always add up to the price.
    function _distribute(
        uint256 tokenId,
        uint256 auctionId,
        address seller,
        address buyer,
        uint256 price,
        uint256 feeBps,
        Ledger memory ledger
    ) private {
        uint256 fee = (price * feeBps) / BPS_DENOMINATOR;
        Royalty[] storage rows = _royalties[tokenId];
        uint256 count = rows.length;
        Royalty[] memory paid = new Royalty[](count);
        uint256[] memory amounts = new uint256[](count);
        uint256 royalties;
        for (uint256 i = 0; i < count; ++i) {
            paid[i] = rows[i];
            amounts[i] = (price * paid[i].bps) / BPS_DENOMINATOR;
            royalties += amounts[i];
        }
        uint256 sellerProceeds = price - fee - royalties;
        emit Sold(tokenId, auctionId, buyer, seller, price, fee, royalties, sellerProceeds);

        for (uint256 i = 0; i < count; ++i) {
            if (amounts[i] == 0) continue;
            emit RoyaltyPaid(tokenId, paid[i].receiver, amounts[i]);
            _pay(ledger, paid[i].receiver, amounts[i]);
        }
        _pay(ledger, _admin, fee);
        _pay(ledger, seller, sellerProceeds);
    }

    /// @dev What the seller of a sale at `price` receives: the price less the fee at `feeBps` and the
    /// royalties, each rounded down as {_distribute} does.
    function _sellerProceeds(uint256 tokenId, uint256 price, uint256 feeBps) private view returns (uint256 proceeds) {
        proceeds = price - (price * feeBps) / BPS_DENOMINATOR;
        Royalty[] storage rows = _royalties[tokenId];
        for (uint256 i = 0; i < rows.length; ++i) {
            proceeds -= (price * rows[i].bps) / BPS_DENOMINATOR;
        }
    }

    /// @dev Buys one cart item for msg.sender if it is still on sale at a fixed price of at most
    /// `seenPrice`, its payouts added to `ledger`; returns its seller (zero when skipped) and price.
    /// Its {Sold} stands for the cleared listing (no {SaleUpdated}: see there).
    function _buyCartItem(uint256 tokenId, uint256 seenPrice, Ledger memory ledger)
        private
        returns (address seller, uint256 price)
    {
        seller = _ownerOf(tokenId);
        Token storage token = _tokens[tokenId];
        price = token.price;
        if (
            seller == address(0) || seller == msg.sender || token.saleType != SaleType.FixedPrice
                || price > seenPrice
        ) {
            emit CartItemSkipped(tokenId, msg.sender, seenPrice, price);
            return (address(0), 0);
        }
        uint256 feeBps = token.feeBps;
        token.saleType = SaleType.NotForSale;
        token.feeBps = 0;
        token.price = 0;
        _transfer(seller, msg.sender, tokenId);
        _distribute(tokenId, 0, seller, msg.sender, price, feeBps, ledger);
    }

    /// @dev The ERC-721 receipt check of each token a cart delivered to msg.sender (a zero seller: skipped).
    /// An account without code passes every check, so it is asked once.
    function _checkReceipts(uint256[] calldata tokenIds, address[] memory sellers) private {
        if (msg.sender.code.length == 0) return;
        for (uint256 i = 0; i < sellers.length; ++i) {
            if (sellers[i] != address(0)) {
                ERC721Utils.checkOnERC721Received(msg.sender, sellers[i], msg.sender, tokenIds[i], "");
            }
        }
    }

    /// @dev Pushes a payout at once, or, in a cart, adds it to the payee's transient sum (listing the
    /// payee at its first payout) to be pushed once at the end.
    function _pay(Ledger memory ledger, address to, uint256 amount) private {
        if (ledger.payees.length == 0) return _push(to, amount);
        if (amount == 0) return;
        uint256 slot = _owedSlot(to);
        uint256 owed;
        assembly ("memory-safe") {
            owed := tload(slot)
        }
        if (owed == 0) {
            ledger.payees[ledger.count] = to;
            ledger.count += 1;
        }
        assembly ("memory-safe") {
            tstore(slot, add(owed, amount))
        }
    }

    /// @dev The transient slot of a payee's sum in a cart: the address under a tag in the high bits,
    /// so it can't meet any other transient slot. The cart clears each sum before pushing it.
    function _owedSlot(address payee) private pure returns (uint256) {
        return uint256(keccak256("Marketplace.cart.owed")) << 160 | uint160(payee);
    }

    /// @dev The split factory: the contract this market created first, at its nonce 1 (the address of
    /// a CREATE is keccak256(rlp([creator, nonce])); no storage or immutable needed).
    function _splitFactory() private view returns (RoyaltySplitFactory) {
        return RoyaltySplitFactory(
            address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xd6), bytes1(0x94), address(this), bytes1(0x01))))))
        );
    }

    /// @dev The empty ledger: payouts are pushed at once.
    function _noLedger() private pure returns (Ledger memory ledger) {}

    /// @dev Removes an offer from escrow and returns it; reverts when there is none.
    function _takeOffer(uint256 tokenId, address offerer) private returns (Offer memory offer) {
        offer = _offers[tokenId][offerer];
        if (offer.amount == 0) revert MarketplaceNoOffer(tokenId, offerer);
        delete _offers[tokenId][offerer];
        // A burn cleared the count with the token (its offers can only be cancelled).
        Token storage token = _tokens[tokenId];
        if (token.openOffers != 0) token.openOffers -= 1;
        _totalOffers -= offer.amount;
    }

    /// @dev Ends the token's listing. For an open auction: marks it ended unsold and releases its top
    /// bid, which the caller must refund with {_push} after all its effects. Emits BidRefunded and
    /// AuctionEnded as needed; the caller emits the SaleUpdated that describes the new listing.
    function _clearListing(uint256 tokenId) private returns (address refundTo, uint256 refund) {
        Token storage token = _tokens[tokenId];
        SaleType saleType = token.saleType;
        if (saleType == SaleType.NotForSale) return (address(0), 0);
        token.saleType = SaleType.NotForSale;
        token.feeBps = 0;
        token.price = 0;
        if (saleType == SaleType.Auction) {
            uint256 auctionId = token.auctionId;
            Auction storage auction = _auctions[auctionId];
            refundTo = auction.highestBidder;
            refund = auction.highestBid;
            auction.highestBidder = address(0);
            auction.highestBid = 0;
            auction.ended = true;
            _totalEscrowed -= refund;
            if (refundTo != address(0)) emit BidRefunded(tokenId, auctionId, refundTo, refund);
            emit AuctionEnded(tokenId, auctionId, address(0), 0);
        }
    }

    /// @dev Lists a token (checked parameters) with a snapshot of the service fee; an auction gets a new id.
    function _list(uint256 tokenId, SaleType saleType, uint256 price, uint64 endTime, uint256 basePrice) private {
        Token storage token = _tokens[tokenId];
        uint96 feeBps = _serviceFeeBps;
        token.saleType = saleType;
        // casting to 'uint16' is safe because the fee is at most MAX_SERVICE_FEE_BPS (1000)
        // forge-lint: disable-next-line(unsafe-typecast)
        token.feeBps = uint16(feeBps);
        // casting to 'uint96' is safe because _checkSaleParameters bounds the price by MAX_PRICE
        // forge-lint: disable-next-line(unsafe-typecast)
        token.price = uint96(price);
        uint256 auctionId;
        if (saleType == SaleType.Auction) {
            auctionId = ++_lastAuctionId;
            token.auctionId = auctionId;
            Auction storage auction = _auctions[auctionId];
            auction.tokenId = tokenId;
            auction.lowestBidAmount = basePrice;
            auction.buyNowPrice = price;
            auction.endTime = endTime;
            emit SaleUpdated(tokenId, saleType, price, basePrice, endTime, auctionId);
        } else {
            emit SaleUpdated(tokenId, saleType, price, 0, 0, 0);
        }
        emit ServiceFeeSnapshotted(tokenId, auctionId, feeBps);
    }

    /// @dev Anti-sniping: when less than {ANTI_SNIPING_WINDOW} remains, moves the auction's end to that
    /// long from now. Returns the end after the call and whether it moved.
    function _extendIfLate(Auction storage auction) private returns (uint64 endTime, bool extended) {
        endTime = auction.endTime;
        if (endTime - block.timestamp < ANTI_SNIPING_WINDOW) {
            // casting to 'uint64' is safe because timestamps stay far below 2**64 seconds
            // forge-lint: disable-next-line(unsafe-typecast)
            endTime = uint64(block.timestamp + ANTI_SNIPING_WINDOW);
            auction.endTime = endTime;
            extended = true;
        }
    }

    /// @dev Pays `amount` to `to` with at most {PUSH_GAS_LIMIT} gas and no return data copied; on
    /// failure credits it instead. Does nothing for a zero amount or address.
    function _push(address to, uint256 amount) private {
        if (amount == 0 || to == address(0)) return;
        bool success;
        uint256 gasLimit = PUSH_GAS_LIMIT;
        assembly ("memory-safe") {
            success := call(gasLimit, to, amount, 0, 0, 0, 0)
        }
        if (!success) {
            _credits[to] += amount;
            _totalCredits += amount;
            emit Credited(to, amount);
        }
    }

    /// @dev Sends all of the caller's credits to `recipient` with all gas; reverts if that fails.
    function _withdrawCredits(address payable recipient) private {
        uint256 amount = _credits[msg.sender];
        if (amount == 0) revert MarketplaceNoCredits(msg.sender);
        _credits[msg.sender] = 0;
        _totalCredits -= amount;
        emit CreditsWithdrawn(msg.sender, amount);
        (bool success,) = recipient.call{value: amount}("");
        if (!success) revert MarketplaceWithdrawFailed(recipient, amount);
    }

    /// @dev The minimum next bid over a top bid: +5%, rounded up (so at least 1 wei for any top bid > 0).
    function _raise(uint256 topBid) private pure returns (uint256) {
        return topBid + (topBid * MIN_RAISE_BPS + BPS_DENOMINATOR - 1) / BPS_DENOMINATOR;
    }

    /// @dev The token's open auction; reverts unless the token is in an auction.
    function _openAuction(uint256 tokenId) private view returns (Auction storage) {
        Token storage token = _tokens[tokenId];
        if (token.saleType != SaleType.Auction) _revertNotAuction(tokenId);
        return _auctions[token.auctionId];
    }

    /// @dev Reverts when the token's auction is past its end with a top bid (it must be settled).
    function _checkNotAwaitingSettlement(uint256 tokenId) private view {
        Token storage token = _tokens[tokenId];
        if (token.saleType != SaleType.Auction) return;
        Auction storage auction = _auctions[token.auctionId];
        if (auction.highestBidder != address(0) && block.timestamp >= auction.endTime) {
            revert MarketplaceAuctionAwaitingSettlement(tokenId);
        }
    }

    /// @dev Checks a listing's parameters: values the sale type does not use must be 0.
    function _checkSaleParameters(SaleType saleType, uint256 price, uint64 endTime, uint256 basePrice) private view {
        if (saleType == SaleType.NotForSale) {
            if (price != 0 || endTime != 0 || basePrice != 0) revert MarketplaceUnexpectedSaleParameters();
        } else if (saleType == SaleType.FixedPrice) {
            if (endTime != 0 || basePrice != 0) revert MarketplaceUnexpectedSaleParameters();
            if (price == 0) revert MarketplaceZeroPrice();
            _checkPrice(price);
        } else {
            _checkPrice(price);
            if (basePrice == 0) revert MarketplaceZeroPrice();
            if (price <= basePrice) revert MarketplaceBuyNowNotAboveBase(basePrice, price);
            if (endTime <= block.timestamp || endTime > block.timestamp + MAX_AUCTION_DURATION) {
                revert MarketplaceInvalidEndTime(endTime);
            }
        }
    }

    /// @dev Reverts when an asking price does not fit the token's price field.
    function _checkPrice(uint256 price) private pure {
        if (price > MAX_PRICE) revert MarketplacePriceTooHigh(price);
    }

    /// @dev Checks royalty rows: at most 2, same lengths, distinct receivers that are neither zero nor
    /// this market, non-zero shares, sum at most {MAX_ROYALTY_BPS}.
    function _checkRoyalties(address[] calldata receivers, uint96[] calldata bps) private view {
        if (receivers.length != bps.length) revert MarketplaceRoyaltyLengthMismatch(receivers.length, bps.length);
        if (receivers.length > MAX_ROYALTY_RECEIVERS) revert MarketplaceTooManyRoyalties(receivers.length);
        uint256 total;
        for (uint256 i = 0; i < receivers.length; ++i) {
            if (receivers[i] == address(0)) revert MarketplaceZeroRoyaltyReceiver();
            if (receivers[i] == address(this)) revert MarketplaceSelfRoyaltyReceiver();
            if (bps[i] == 0) revert MarketplaceZeroRoyaltyShare();
            total += bps[i];
        }
        if (receivers.length == 2 && receivers[0] == receivers[1]) {
            revert MarketplaceDuplicateRoyaltyReceiver(receivers[0]);
        }
        if (total > MAX_ROYALTY_BPS) revert MarketplaceRoyaltyTooHigh(total);
    }

    /// @dev Reverts while the token's sale is held.
    function _checkNotHeld(uint256 tokenId) private view {
        uint64 until = _holds[tokenId].until;
        if (block.timestamp < until) revert MarketplaceSaleHeld(tokenId, until);
    }

    /// @dev Reverts with {MarketplaceSaleHeld} when held (a hold ends the listing, so a held token is never
    /// for sale), else with {MarketplaceNotForSale}: the hold costs a purchase nothing.
    function _revertNotForSale(uint256 tokenId) private view {
        _checkNotHeld(tokenId);
        revert MarketplaceNotForSale(tokenId);
    }

    /// @dev As {_revertNotForSale}, for the paths that need an auction.
    function _revertNotAuction(uint256 tokenId) private view {
        _checkNotHeld(tokenId);
        revert MarketplaceNotAuction(tokenId);
    }

    /// @dev Reverts unless the caller is a moderator and the token exists and is not the caller's.
    function _checkModeration(uint256 tokenId) private view {
        if (!_moderators[msg.sender]) revert MarketplaceNotModerator(msg.sender);
        if (_requireExists(tokenId) == msg.sender) revert MarketplaceModeratorIsOwner(tokenId);
    }

    /// @dev Reverts unless the caller is the admin.
    function _onlyAdmin() private view {
        if (msg.sender != _admin) revert MarketplaceNotAdmin(msg.sender);
    }

    /// @dev Reverts unless the token exists and the caller owns it; returns the owner.
    function _onlyOwner(uint256 tokenId) private view returns (address owner) {
        owner = _requireExists(tokenId);
        if (msg.sender != owner) revert MarketplaceNotOwner(tokenId);
    }

    /// @dev Reverts unless the token exists; returns its owner.
    function _requireExists(uint256 tokenId) private view returns (address owner) {
        owner = _ownerOf(tokenId);
        if (owner == address(0)) revert MarketplaceNonexistentToken(tokenId);
    }
}
