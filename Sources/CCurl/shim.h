#include <curl/curl.h>
// The event loop that drives a multi handle: Swift's Glibc module leaves these out.
#include <sys/epoll.h>
#include <sys/eventfd.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per
// argument type.
static inline CURLcode chime_curl_setopt_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode chime_curl_setopt_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode chime_curl_setopt_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode chime_curl_setopt_list(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode chime_curl_setopt_offset(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
typedef size_t (*chime_curl_data_callback)(char *, size_t, size_t, void *);
static inline CURLcode chime_curl_setopt_write(CURL *c, chime_curl_data_callback f) { return curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode chime_curl_setopt_header(CURL *c, chime_curl_data_callback f) { return curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, f); }
typedef int (*chime_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode chime_curl_setopt_progress(CURL *c, chime_curl_progress_callback f) { return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode chime_curl_getinfo_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }

// curl_multi_setopt is variadic too: the callbacks a multi handle driven by its owner's own event loop
// needs (curl_multi_socket_action), each with its context pointer.
typedef int (*chime_curl_socket_callback)(CURL *, curl_socket_t, int, void *, void *);
typedef int (*chime_curl_timer_callback)(CURLM *, long, void *);
static inline CURLMcode chime_curl_multi_setopt_socket(CURLM *m, chime_curl_socket_callback f, void *context) {
    CURLMcode code = curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f);
    return code != CURLM_OK ? code : curl_multi_setopt(m, CURLMOPT_SOCKETDATA, context);
}
static inline CURLMcode chime_curl_multi_setopt_timer(CURLM *m, chime_curl_timer_callback f, void *context) {
    CURLMcode code = curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f);
    return code != CURLM_OK ? code : curl_multi_setopt(m, CURLMOPT_TIMERDATA, context);
}
static inline CURLMcode chime_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
