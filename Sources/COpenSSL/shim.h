// The system OpenSSL's libcrypto (libssl-dev): message authentication codes and digests.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
