// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// A hostile ERC-1271 payer for the relay's tests: its owner signs EIP-3009 authorizations as
/// this contract, and it can make checking them cost `burn` rounds of hashing, or turn every
/// signature invalid (`refuse`), e.g. after a relayer sent a transaction and before it is mined.
contract TestGasBurningPayer {
    address public immutable owner;
    uint256 public burn;
    bool public refuse;

    constructor(address owner_) {
        owner = owner_;
    }

    function configure(uint256 burn_, bool refuse_) external {
        require(msg.sender == owner, "GasBurningPayer: not the owner");
        burn = burn_;
        refuse = refuse_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        bytes32 x = hash;
        uint256 rounds = burn;
        assembly {
            for { let i := 0 } lt(i, rounds) { i := add(i, 1) } {
                mstore(0, x)
                x := keccak256(0, 32)
            }
        }
        if (refuse || x == bytes32(0) || signature.length != 65) return bytes4(0xffffffff);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
