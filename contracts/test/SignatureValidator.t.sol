// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "./utils/Test.sol";
import {SignatureValidator} from "../src/SignatureValidator.sol";
import {SmartAccount, SmartAccountFactory} from "./helpers/SmartAccount.sol";

/// The deployless check the server runs in an eth_call: a key's account, a deployed smart account
/// (ERC-1271) and one not deployed yet (ERC-6492), each with a good and a foreign signature.
contract SignatureValidatorTest is Test {
    bytes32 constant SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    uint256 constant OWNER_KEY = 0xA11CE;
    uint256 constant OTHER_KEY = 0xB0B;
    bytes32 constant HASH = keccak256("\x19Ethereum Signed Message:\n5hello");

    SmartAccountFactory factory;

    function setUp() public {
        factory = new SmartAccountFactory();
    }

    /// What the eth_call returns: the created code, one byte.
    function _valid(address signer, bytes memory signature) internal returns (bool) {
        bytes memory answer = address(new SignatureValidator(signer, HASH, signature)).code;
        assertEq(answer.length, 1, "one byte");
        return answer[0] == 0x01;
    }

    function _sign(uint256 key) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, HASH);
        return abi.encodePacked(r, s, v);
    }

    function _wrap(address owner, bytes memory inner) internal view returns (bytes memory) {
        return abi.encodePacked(abi.encode(address(factory), abi.encodeCall(SmartAccountFactory.deploy, (owner)), inner), SUFFIX);
    }

    function test_aKeysAccount_byItsKeyOnly() public {
        assertTrue(_valid(vm.addr(OWNER_KEY), _sign(OWNER_KEY)));
        assertFalse(_valid(vm.addr(OWNER_KEY), _sign(OTHER_KEY)));
        assertFalse(_valid(vm.addr(OWNER_KEY), hex"1234"), "not 65 bytes");
    }

    function test_aDeployedSmartAccount_asksTheAccount() public {
        address account = address(factory.deploy(vm.addr(OWNER_KEY)));
        assertTrue(_valid(account, _sign(OWNER_KEY)));
        assertFalse(_valid(account, _sign(OTHER_KEY)));
    }

    function test_anAccountNotDeployedYet_isDeployedInTheCheck_thenAsked() public {
        address owner = vm.addr(OWNER_KEY);
        address account = factory.addressOf(owner);
        assertEq(account.code.length, 0);
        assertTrue(_valid(account, _wrap(owner, _sign(OWNER_KEY))));
        // The check deployed it (in a real eth_call, only in the simulation).
        assertGt(account.code.length, 0, "deployed");
    }

    function test_aWrappedSignature_ofAnotherKey_isNot() public {
        address owner = vm.addr(OWNER_KEY);
        assertFalse(_valid(factory.addressOf(owner), _wrap(owner, _sign(OTHER_KEY))));
    }

    function test_aWrapperThatDeploysAnotherAccount_isNot() public {
        // The factory call deploys the other key's account: the one named still has no code.
        address account = factory.addressOf(vm.addr(OWNER_KEY));
        assertFalse(_valid(account, _wrap(vm.addr(OTHER_KEY), _sign(OWNER_KEY))));
        assertEq(account.code.length, 0);
    }

    function test_aWrappedSignature_forAnAccountDeployedSince_stillHolds() public {
        address owner = vm.addr(OWNER_KEY);
        address account = address(factory.deploy(owner));
        assertTrue(_valid(account, _wrap(owner, _sign(OWNER_KEY))));
    }
}
