// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @dev A smart account for tests: valid signatures are its owner key's (ERC-1271), as a smart
/// wallet's are. Created at a CREATE2 address by {SmartAccountFactory}, so a signature can name it
/// before it exists (ERC-6492).
contract SmartAccount {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// @dev Creates {SmartAccount}s at addresses known in advance.
contract SmartAccountFactory {
    function deploy(address owner) external returns (SmartAccount account) {
        account = new SmartAccount{salt: bytes32(0)}(owner);
    }

    function addressOf(address owner) external view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(SmartAccount).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(0), code)))));
    }
}
