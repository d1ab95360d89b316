// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @dev ERC-1271: a contract account says whether a signature of a hash is its own.
interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4 magicValue);
}

/**
 * @title Whether an account signed a hash: a key's account, a smart account, or one not deployed yet
 * @notice Never deployed: the server runs its creation code in an `eth_call` without a `to`
 * (ERC-6492's "deployless" check), with `(signer, hash, signature)` as constructor arguments, and
 * the call returns one byte, 0x01 when the signature is valid and 0x00 when not. In that order
 * (ERC-6492): a signature wrapped for an account not deployed yet (ending with the ERC-6492 suffix)
 * first deploys the account through its factory, inside the call only, then asks it (ERC-1271); an
 * account with code is asked (ERC-1271); any other is a key's account (ecrecover).
 * @dev Side effects (the factory's deployment) stay in the simulated call.
 */
contract SignatureValidator {
    /// @dev ERC-6492's suffix of a wrapped signature.
    bytes32 private constant ERC6492_SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    /// @dev ERC-1271's answer for a valid signature.
    bytes4 private constant ERC1271_VALID = 0x1626ba7e;

    /// @param signer The account that should have signed.
    /// @param hash The hash it signed (for a sign-in message: its EIP-191 hash).
    /// @param signature The signature: 65 bytes, a smart account's own form, or an ERC-6492 wrapper.
    constructor(address signer, bytes32 hash, bytes memory signature) {
        bool valid = _isValid(signer, hash, signature);
        assembly ("memory-safe") {
            mstore(0, valid)
            return(31, 1)
        }
    }

    function _isValid(address signer, bytes32 hash, bytes memory signature) private returns (bool) {
        if (_wrapped(signature)) {
            // Unwrapped in place: the wrapper is abi.encode(factory, factoryCalldata, signature) ++ suffix.
            assembly ("memory-safe") {
                mstore(signature, sub(mload(signature), 32))
            }
            (address factory, bytes memory factoryCalldata, bytes memory inner) = abi.decode(signature, (address, bytes, bytes));
            if (signer.code.length == 0) {
                (bool deployed,) = factory.call(factoryCalldata);
                if (!deployed || signer.code.length == 0) return false;
            }
            return _erc1271(signer, hash, inner);
        }
        if (signer.code.length != 0) return _erc1271(signer, hash, signature);
        return _recovered(signer, hash, signature);
    }

    function _wrapped(bytes memory signature) private pure returns (bool suffixed) {
        if (signature.length < 32) return false;
        assembly ("memory-safe") {
            suffixed := eq(mload(add(signature, mload(signature))), ERC6492_SUFFIX)
        }
    }

    function _erc1271(address signer, bytes32 hash, bytes memory signature) private view returns (bool) {
        try IERC1271(signer).isValidSignature(hash, signature) returns (bytes4 answer) {
            return answer == ERC1271_VALID;
        } catch {
            return false;
        }
    }

    function _recovered(address signer, bytes32 hash, bytes memory signature) private pure returns (bool) {
        if (signature.length != 65 || signer == address(0)) return false;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        return ecrecover(hash, v, r, s) == signer;
    }
}
