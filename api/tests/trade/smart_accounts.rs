//! Smart accounts link their wallet as key accounts do: a deployed one answers for its signature
//! (ERC-1271), and one not deployed yet signs with the call that would deploy it (ERC-6492); the
//! server asks the chain (a deployless `eth_call`) and links only what the account's owner signed.

use std::process::Command;

use alloy::{
    network::TransactionBuilder,
    primitives::{Address, Bytes},
    providers::Provider,
    rpc::types::TransactionRequest,
    signers::{
        SignerSync,
        local::{MnemonicBuilder, coins_bip39::English},
    },
    sol,
    sol_types::{SolCall, SolValue},
};
use indexer::test_utils::TEST_MNEMONIC;

use crate::helpers::Market;

sol! {
    function deploy(address owner) external returns (address);
    function addressOf(address owner) external view returns (address);
}

/// ERC-6492's suffix of a wrapped signature.
const SUFFIX: [u8; 32] = [
    0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
    0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
];

/// The creation code of the tests' smart account factory (contracts/test/helpers/SmartAccount.sol),
/// compiled with the contracts' solc-js.
fn factory_code() -> Vec<u8> {
    let script = "const solc=require('solc');const src=require('fs').readFileSync('test/helpers/SmartAccount.sol','utf8');\
        const out=JSON.parse(solc.compile(JSON.stringify({language:'Solidity',sources:{'a.sol':{content:src}},\
        settings:{optimizer:{enabled:true,runs:200},evmVersion:'cancun',outputSelection:{'*':{'*':['evm.bytecode.object']}}}})));\
        process.stdout.write(out.contracts['a.sol'].SmartAccountFactory.evm.bytecode.object)";
    let contracts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../contracts");
    let out = Command::new("node").arg("-e").arg(script).current_dir(contracts).output().expect("node runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    alloy::hex::decode(String::from_utf8(out.stdout).unwrap()).unwrap()
}

#[tokio::test]
async fn a_smart_account_links_deployed_or_not_yet_and_only_with_its_owners_signature() {
    let market = Market::start().await;
    let chain = &market.chain;
    let deployer = chain.accounts[0];
    let deployed = TransactionRequest::default().with_from(deployer).with_deploy_code(factory_code());
    let factory = chain.provider.send_transaction(deployed).await.unwrap().get_receipt().await.unwrap().contract_address.unwrap();
    let call = |data: Vec<u8>| TransactionRequest::default().with_to(factory).with_input(data);
    let account_of = async |owner: Address| {
        let answer = chain.provider.call(call(addressOfCall { owner }.abi_encode())).await.unwrap();
        Address::abi_decode(&answer).unwrap()
    };
    let owner = MnemonicBuilder::<English>::from_phrase_nth(TEST_MNEMONIC, 7);
    let stranger = MnemonicBuilder::<English>::from_phrase_nth(TEST_MNEMONIC, 8);
    let sam = market.user("sam", 1).await;

    // Not deployed yet: the signature is wrapped with the factory call that would deploy it.
    let counterfactual = account_of(owner.address()).await;
    assert!(chain.provider.get_code_at(counterfactual).await.unwrap().is_empty());
    let wrapped = |signer: &alloy::signers::local::PrivateKeySigner, for_owner: Address| {
        let signer = signer.clone();
        move |message: &str| {
            let inner = Bytes::from(signer.sign_message_sync(message.as_bytes()).unwrap().as_bytes().to_vec());
            let deploy = Bytes::from(deployCall { owner: for_owner }.abi_encode());
            let mut sig = (factory, deploy, inner).abi_encode_params();
            sig.extend_from_slice(&SUFFIX);
            alloy::hex::encode_prefixed(sig)
        }
    };
    market.link(&sam, counterfactual, wrapped(&stranger, owner.address())).await.refused("Invalid signature");
    market.link(&sam, counterfactual, wrapped(&owner, stranger.address())).await.refused("Invalid signature");
    let linked = market.link(&sam, counterfactual, wrapped(&owner, owner.address())).await.expect(200);
    assert!(linked.body().to_string().to_lowercase().contains(&counterfactual.to_string().to_lowercase()), "{}", linked.body());
    assert!(chain.provider.get_code_at(counterfactual).await.unwrap().is_empty(), "the check deployed nothing for real");

    // Deployed: the account itself answers for a plain signature of its owner.
    let tom = market.user("tom", 2).await;
    let receipt = chain.provider.send_transaction(call(deployCall { owner: stranger.address() }.abi_encode()).with_from(deployer)).await;
    receipt.unwrap().get_receipt().await.unwrap();
    let smart = account_of(stranger.address()).await;
    assert!(!chain.provider.get_code_at(smart).await.unwrap().is_empty());
    let plain = |signer: &alloy::signers::local::PrivateKeySigner| {
        let signer = signer.clone();
        move |message: &str| signer.sign_message_sync(message.as_bytes()).unwrap().to_string()
    };
    market.link(&tom, smart, plain(&owner)).await.refused("Invalid signature");
    market.link(&tom, smart, plain(&stranger)).await.expect(200);
}
