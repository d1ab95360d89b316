// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Marketplace} from "../../src/Marketplace.sol";

/// @notice A contract account that takes part in the market through {act}, and can receive NFTs.
contract Actor {
    Marketplace internal immutable _market;
    /// @dev True while this actor's own call into the market is running.
    bool internal _inMarketCall;

    constructor(Marketplace market_) {
        _market = market_;
    }

    /// @notice Calls the market with this contract as msg.sender; bubbles a revert up.
    function act(bytes calldata data, uint256 value) external payable returns (bytes memory result) {
        _inMarketCall = true;
        bool ok;
        (ok, result) = address(_market).call{value: value}(data);
        _inMarketCall = false;
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
    }

    function onERC721Received(address, address, uint256, bytes calldata) external virtual returns (bytes4) {
        return this.onERC721Received.selector;
    }

    receive() external payable virtual {}
}

/// @notice Refuses every ether transfer.
contract RevertingReceiver is Actor {
    constructor(Marketplace market_) Actor(market_) {}

    receive() external payable override {
        revert("RevertingReceiver: no ether");
    }
}

/// @notice Burns all the gas it is given when receiving ether. It can only be paid through credits
/// withdrawn elsewhere ({Marketplace.withdrawCreditsTo}).
contract GasBurner is Actor {
    constructor(Marketplace market_) Actor(market_) {}

    receive() external payable override {
        while (true) {}
    }
}

/// @notice Accepts ether but needs more gas than a capped push gives (it writes storage on receipt).
contract GasHungryReceiver is Actor {
    uint256 public received;
    uint256 public receipts;

    constructor(Marketplace market_) Actor(market_) {}

    receive() external payable override {
        received += msg.value;
        receipts += 1;
    }
}

/// @notice Tries to re-enter the market from `receive` and from `onERC721Received`; every attempt is
/// counted, and any that succeeds while one of its own market calls is running is recorded.
contract Reentrant is Actor {
    uint256 public attempts;
    uint256 public successes;
    uint256 public targetTokenId;
    uint256 public bidValue;
    address public offerer; // whose offer on the target the attack tries to accept or reject

    constructor(Marketplace market_) Actor(market_) {}

    function setTarget(uint256 tokenId, uint256 value) external {
        targetTokenId = tokenId;
        bidValue = value;
    }

    function setOfferer(address offerer_) external {
        offerer = offerer_;
    }

    function _attack() internal {
        uint256 tokenId = targetTokenId;
        uint256[] memory ids = new uint256[](1);
        ids[0] = tokenId;
        uint256[] memory prices = new uint256[](1);
        prices[0] = bidValue;
        bytes[12] memory calls = [
            abi.encodeCall(Marketplace.withdrawCredits, ()),
            abi.encodeCall(Marketplace.bid, (tokenId)),
            abi.encodeCall(Marketplace.buyToken, (tokenId)),
            abi.encodeCall(Marketplace.makeOffer, (tokenId, uint64(block.timestamp + 1 days))),
            abi.encodeCall(Marketplace.buyTokens, (ids, prices)),
            abi.encodeCall(Marketplace.settleAuction, (tokenId)),
            abi.encodeCall(Marketplace.acceptOffer, (tokenId, true)),
            abi.encodeCall(Marketplace.toggleForSale, (tokenId, Marketplace.SaleType.NotForSale, 0, 0, 0)),
            abi.encodeCall(Marketplace.transferFrom, (address(this), address(0xdead), tokenId)),
            abi.encodeCall(Marketplace.cancelOffer, (tokenId)),
            abi.encodeCall(Marketplace.acceptOfferFrom, (tokenId, offerer, bidValue, 0)),
            abi.encodeCall(Marketplace.rejectOfferFrom, (tokenId, offerer))
        ];
        for (uint256 i = 0; i < calls.length; ++i) {
            attempts += 1;
            uint256 value = i >= 1 && i <= 4 ? bidValue : 0;
            if (address(this).balance < value) value = 0;
            (bool ok,) = address(_market).call{value: value}(calls[i]);
            if (ok) successes += 1;
        }
    }

    function onERC721Received(address, address, uint256, bytes calldata) external override returns (bytes4) {
        if (_inMarketCall) _attack();
        return this.onERC721Received.selector;
    }

    /// @dev Attacks on every receipt. Under a capped push (10,000 gas) the attempt itself runs out of
    /// gas, so the push fails and becomes a credit; a withdrawal (all gas) lets the attempts run.
    receive() external payable override {
        _attack();
    }
}

/// @notice A seller whose `receive` (run by the capped push of its proceeds) re-enters the market with
/// the gas it has: it tries to accept another offer, named by immutables (a storage read would eat the
/// capped gas), and reports the outcome in an event (a storage write would not fit either). Then it
/// takes the ether, so the push itself succeeds.
contract ReentrantSeller is Actor {
    uint256 internal immutable _tokenId;
    address internal immutable _offerer;
    uint256 internal immutable _amount;

    /// @notice The re-entrant call's outcome: success, or the selector it reverted with.
    event Reentered(bool ok, bytes4 selector);

    constructor(Marketplace market_, uint256 tokenId, address offerer, uint256 amount) Actor(market_) {
        _tokenId = tokenId;
        _offerer = offerer;
        _amount = amount;
    }

    receive() external payable override {
        if (!_inMarketCall) return;
        (bool ok, bytes memory result) =
            address(_market).call(abi.encodeCall(Marketplace.acceptOfferFrom, (_tokenId, _offerer, _amount, 0)));
        emit Reentered(ok, ok ? bytes4(0) : bytes4(result));
    }
}

/// @notice Counts the payments it receives (its counter starts at 1 so that an increment fits in the
/// capped push's gas).
contract CountingReceiver is Actor {
    uint256 public receipts = 1;

    constructor(Marketplace market_) Actor(market_) {}

    receive() external payable override {
        receipts += 1;
    }
}

/// @notice A contract that cannot hold NFTs (no onERC721Received).
contract NoReceiver {
    function buy(Marketplace market, uint256 tokenId) external payable {
        market.buyToken{value: msg.value}(tokenId);
    }

    function buyCart(Marketplace market, uint256[] calldata tokenIds, uint256[] calldata seenPrices) external payable {
        market.buyTokens{value: msg.value}(tokenIds, seenPrices);
    }
}
