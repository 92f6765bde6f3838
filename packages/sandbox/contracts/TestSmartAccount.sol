// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// A minimal smart-contract account for tests: the owner's key authorises each call off chain and
/// any account (a bundler) submits it and pays the gas, as with an ERC-4337 wallet. The token
/// Transfer it makes comes from this contract, not from the owner or the bundler.
contract TestSmartAccount {
    address public immutable owner;
    uint256 public nonce;

    event Executed(uint256 indexed nonce, address indexed target, bytes data);

    constructor(address owner_) {
        owner = owner_;
    }

    /// What the owner signs (EIP-191 personal message of this hash) to authorise one call.
    function callHash(address target, uint256 value, bytes calldata data, uint256 nonce_) public view returns (bytes32) {
        return keccak256(abi.encode(block.chainid, address(this), target, value, keccak256(data), nonce_));
    }

    function execute(address target, uint256 value, bytes calldata data, bytes calldata signature) external {
        bytes32 digest = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", callHash(target, value, data, nonce)));
        require(_recover(digest, signature) == owner, "SmartAccount: not authorised by the owner");
        emit Executed(nonce, target, data);
        nonce += 1;
        (bool ok, bytes memory result) = target.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// ERC-1271: the owner's signature is the account's (so it can sign EIP-3009 authorizations).
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _recover(hash, signature) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function _recover(bytes32 digest, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(digest, v, r, s);
    }

    receive() external payable {}
}

/// A Safe-like two-owner account for tests: one owner proposes a call (its id is the off-chain
/// answer a Safe gives), and the call runs only when the second owner approves it, in a later
/// transaction sent by that owner.
contract TestSafe {
    address[2] public owners;
    struct Proposal {
        address target;
        bytes data;
        address proposer;
        bool executed;
    }
    mapping(bytes32 => Proposal) public proposals;
    uint256 public proposalCount;

    event Proposed(bytes32 indexed id, address indexed target);
    event ExecutionSuccess(bytes32 indexed id);

    constructor(address first, address second) {
        owners = [first, second];
    }

    function isOwner(address account) public view returns (bool) {
        return account == owners[0] || account == owners[1];
    }

    function propose(address target, bytes calldata data) external returns (bytes32 id) {
        require(isOwner(msg.sender), "Safe: not an owner");
        id = keccak256(abi.encode(block.chainid, address(this), proposalCount++, target, data));
        proposals[id] = Proposal(target, data, msg.sender, false);
        emit Proposed(id, target);
    }

    function approve(bytes32 id) external {
        Proposal storage p = proposals[id];
        require(p.target != address(0), "Safe: unknown proposal");
        require(isOwner(msg.sender) && msg.sender != p.proposer, "Safe: needs the other owner");
        require(!p.executed, "Safe: already executed");
        p.executed = true;
        (bool ok, bytes memory result) = p.target.call(p.data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        emit ExecutionSuccess(id);
    }
}
