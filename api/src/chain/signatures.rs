//! Whether an account signed a hash when no key recovers to it: a smart account (ERC-1271) or one
//! not deployed yet (ERC-6492). The chain answers, through one `eth_call` without a `to` that runs
//! the creation code of `contracts/out/SignatureValidator.json` (never deployed) with
//! `(signer, hash, signature)`: it returns 0x01 for a valid signature, deploying a counterfactual
//! account only inside the simulated call.

use std::sync::OnceLock;

use alloy::{
    network::TransactionBuilder,
    primitives::{Address, B256, Bytes},
    providers::Provider,
    rpc::types::TransactionRequest,
    sol_types::SolValue,
};

const ARTIFACT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../contracts/out/SignatureValidator.json"));

/// The validator's creation code, from the committed artifact.
fn creation_code() -> &'static [u8] {
    static CODE: OnceLock<Vec<u8>> = OnceLock::new();
    CODE.get_or_init(|| {
        let artifact: serde_json::Value = serde_json::from_str(ARTIFACT).expect("SignatureValidator.json is JSON");
        let hex = artifact["bytecode"].as_str().expect("SignatureValidator.json has its bytecode");
        alloy::hex::decode(hex).expect("SignatureValidator.json's bytecode is hex")
    })
}

/// Whether the account at `signer` signed `hash` with `signature`, as the chain at `rpc_url`
/// says (ERC-1271, ERC-6492; a key's account too). An error when the node cannot be asked.
pub async fn signed(rpc_url: &str, signer: Address, hash: B256, signature: &[u8]) -> Result<bool, String> {
    let provider = super::receipts::provider(rpc_url).map_err(|e| e.to_string())?;
    let mut code = creation_code().to_vec();
    code.extend((signer, hash, Bytes::copy_from_slice(signature)).abi_encode_params());
    let answer = provider.call(TransactionRequest::default().with_deploy_code(code)).await.map_err(|e| e.to_string())?;
    Ok(answer.as_ref() == [1])
}
