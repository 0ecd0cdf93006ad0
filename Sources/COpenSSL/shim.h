// The system OpenSSL's libcrypto (libssl-dev): message authentication codes, digests, and P-256 keys.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include <openssl/pem.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/err.h>

// Macros and variadic functions Swift cannot call, one small wrapper each.

/// A new P-256 key pair.
static inline EVP_PKEY *chime_p256_generate(void) { return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); }

/// A P-256 public key from its uncompressed point (0x04 ‖ X ‖ Y); NULL when the bytes are not a point on
/// the curve.
static inline EVP_PKEY *chime_p256_public_key(const unsigned char *point, size_t length) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, length),
        OSSL_PARAM_construct_end(),
    };
    if (context != NULL && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/// A private key from PEM, never asking for a passphrase: OpenSSL's default callback would prompt on the
/// terminal or read standard input, so an encrypted key is refused instead.
static int chime_no_passphrase(char *buffer, int size, int writing, void *context) { return -1; }
static inline EVP_PKEY *chime_read_private_key(BIO *bio) { return PEM_read_bio_PrivateKey(bio, NULL, chime_no_passphrase, NULL); }

/// The bytes a memory BIO holds.
static inline long chime_bio_contents(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

static inline void chime_openssl_free(void *pointer) { OPENSSL_free(pointer); }
