import CMHD
import ChimeAPI
import Foundation

// libmicrohttpd's callbacks. They run on the library's threads, so they live here as non-capturing
// closures of no actor (never in main.swift, whose top-level code is main-actor isolated), and hand
// everything to the server or the stream named by their context pointer.

/// Every call for a request: the head (first call), body pieces, then the final call.
let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let uploadSize, let requestContext else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.handle(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, context: requestContext)
}

/// The request is over (answered, or the connection closed): release its exchange.
let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let pointer = requestContext.pointee else { return }
    Unmanaged<HTTPExchange>.fromOpaque(pointer).release()
    requestContext.pointee = nil
}

/// Leaves the path and query arguments percent-encoded, so an escaped `/` stays inside its path segment;
/// the router decodes each segment and argument itself.
let keepEscaped: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
    guard let text else { return 0 }
    return strlen(text)
}

/// libmicrohttpd's own messages (an accept that failed, the connection limit reached) into the log.
let libraryLog: MHD_LogCallback = { context, format, arguments in
    guard let context, let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().libraryReported(message.trimmingCharacters(in: .whitespacesAndNewlines))
}

let collectHeader: MHD_KeyValueIterator = { context, _, name, value in
    guard let context, let name else { return .YES }
    let headers = context.assumingMemoryBound(to: HeaderCollector.self)
    headers.pointee.values[String(cString: name).lowercased()] = value.map { String(cString: $0) } ?? ""
    return .YES
}

let collectQueryArgument: MHD_KeyValueIterator = { context, _, name, value in
    guard let context, let name else { return .YES }
    let query = context.assumingMemoryBound(to: QueryCollector.self)
    guard let decodedName = QueryDecoding.decode(String(cString: name)) else { return .YES }
    query.pointee.arguments.append((decodedName, value.flatMap { QueryDecoding.decode(String(cString: $0)) } ?? ""))
    return .YES
}

let readStream: MHD_ContentReaderCallback = { context, _, buffer, maximum in
    guard let context, let buffer else { return -1 }
    return Unmanaged<StreamingBody>.fromOpaque(context).takeUnretainedValue().read(into: buffer, maximum: maximum)
}

let releaseStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<StreamingBody>.fromOpaque(context).takeRetainedValue()
    stream.released()
}

/// Query arguments as forms send them: `+` is a space, `%XX` a byte.
package enum QueryDecoding {
    package static func decode(_ text: String) -> String? {
        PercentEncoding.decode(text.replacingOccurrences(of: "+", with: " "))
    }
}
