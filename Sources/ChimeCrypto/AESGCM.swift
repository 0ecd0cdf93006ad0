import COpenSSL

/// AES-128-GCM (NIST SP 800-38D) from libcrypto, with a 12-byte nonce and a 16-byte tag: Web Push's
/// `aes128gcm` content coding (RFC 8188) seals each record with it.
public enum AESGCM {
    /// `plaintext` sealed: the ciphertext followed by the 16-byte tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && nonce.count == 12, "AES-128-GCM takes a 16-byte key and a 12-byte nonce here")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("libcrypto could not allocate a cipher") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        let sealed = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1,
                EVP_EncryptUpdate(context, out.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1,
                EVP_EncryptFinal_ex(context, out.baseAddress! + Int(written), &final) == 1
            else { return false }
            return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, out.baseAddress! + plaintext.count) == 1
        }
        precondition(sealed && Int(written + final) == plaintext.count, "libcrypto could not seal with AES-128-GCM")
        return output
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag); `nil` when the tag does not match.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard key.count == 16, nonce.count == 12, sealed.count >= 16, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertext = Array(sealed.dropLast(16))
        var tag = Array(sealed.suffix(16))
        var output = [UInt8](repeating: 0, count: max(ciphertext.count, 1))
        var written: Int32 = 0
        var final: Int32 = 0
        let opened = output.withUnsafeMutableBufferPointer { out -> Bool in
            EVP_DecryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1
                && EVP_DecryptUpdate(context, out.baseAddress, &written, ciphertext, Int32(ciphertext.count)) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1
                && EVP_DecryptFinal_ex(context, out.baseAddress! + Int(written), &final) == 1
        }
        return opened ? Array(output.prefix(Int(written + final))) : nil
    }
}
