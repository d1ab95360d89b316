// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Vm} from "./Vm.sol";

/// @notice A minimal stand-in for forge-std's Test: cheatcodes, assertions (forge's own, through the
/// cheatcode contract), `bound`, `makeAddr`, and the invariant-target hooks forge looks for.
abstract contract Test {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    /// @dev Read by forge to tell test contracts apart (kept for older forge versions).
    bool public IS_TEST = true;

    // ---- assertions -------------------------------------------------------------------------

    function assertTrue(bool c) internal pure {
        vm.assertTrue(c, "assertTrue failed");
    }

    function assertTrue(bool c, string memory err) internal pure {
        vm.assertTrue(c, err);
    }

    function assertFalse(bool c) internal pure {
        vm.assertFalse(c, "assertFalse failed");
    }

    function assertFalse(bool c, string memory err) internal pure {
        vm.assertFalse(c, err);
    }

    function assertEq(uint256 a, uint256 b) internal pure {
        vm.assertEq(a, b, "assertEq(uint256) failed");
    }

    function assertEq(uint256 a, uint256 b, string memory err) internal pure {
        vm.assertEq(a, b, err);
    }

    function assertEq(address a, address b) internal pure {
        vm.assertEq(a, b, "assertEq(address) failed");
    }

    function assertEq(address a, address b, string memory err) internal pure {
        vm.assertEq(a, b, err);
    }

    function assertEq(bool a, bool b) internal pure {
        vm.assertEq(a, b, "assertEq(bool) failed");
    }

    function assertEq(bool a, bool b, string memory err) internal pure {
        vm.assertEq(a, b, err);
    }

    function assertEq(bytes32 a, bytes32 b) internal pure {
        vm.assertEq(a, b, "assertEq(bytes32) failed");
    }

    function assertEq(string memory a, string memory b) internal pure {
        vm.assertEq(a, b, "assertEq(string) failed");
    }

    function assertEq(bytes memory a, bytes memory b) internal pure {
        vm.assertEq(a, b, "assertEq(bytes) failed");
    }

    function assertGe(uint256 a, uint256 b, string memory err) internal pure {
        vm.assertGe(a, b, err);
    }

    function assertGt(uint256 a, uint256 b, string memory err) internal pure {
        vm.assertGt(a, b, err);
    }

    function assertLe(uint256 a, uint256 b, string memory err) internal pure {
        vm.assertLe(a, b, err);
    }

    function assertLt(uint256 a, uint256 b, string memory err) internal pure {
        vm.assertLt(a, b, err);
    }

    // ---- helpers ----------------------------------------------------------------------------

    /// @dev Maps x into [min, max]; values already inside are kept, so the fuzzer's edge cases survive.
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        if (x >= min && x <= max) return x;
        uint256 size = max - min;
        if (size == type(uint256).max) return x;
        return min + (x % (size + 1));
    }

    function makeAddr(string memory name) internal returns (address a) {
        a = vm.addr(uint256(keccak256(bytes(name))));
        vm.label(a, name);
    }

    function skip(uint256 seconds_) internal {
        vm.warp(block.timestamp + seconds_);
    }

    // ---- invariant targets (forge calls these by name) ----------------------------------------

    struct FuzzSelector {
        address addr;
        bytes4[] selectors;
    }

    address[] private _targetedContracts;
    address[] private _targetedSenders;
    FuzzSelector[] private _targetedSelectors;

    function targetContract(address target) internal {
        _targetedContracts.push(target);
    }

    function targetSender(address sender) internal {
        _targetedSenders.push(sender);
    }

    function targetSelector(FuzzSelector memory selector) internal {
        _targetedSelectors.push(selector);
    }

    function targetContracts() public view returns (address[] memory) {
        return _targetedContracts;
    }

    function targetSenders() public view returns (address[] memory) {
        return _targetedSenders;
    }

    function targetSelectors() public view returns (FuzzSelector[] memory) {
        return _targetedSelectors;
    }
}
