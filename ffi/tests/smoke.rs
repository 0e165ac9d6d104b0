#[test]
fn abi_version_links() {
    assert_eq!(xcover::xcover_abi_version(), xcover::XCOVER_ABI_VERSION);
}
