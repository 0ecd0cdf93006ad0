import ChimeFuzzTargets
import Foundation

// libFuzzer's entry points. The target is named by CHIME_FUZZ_TARGET (script/fuzz sets it), so one
// instrumented build serves every parser. A violation of the target's check traps, which libFuzzer keeps
// as a crash with its input.

nonisolated(unsafe) private var target: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = ProcessInfo.processInfo.environment["CHIME_FUZZ_TARGET"] ?? ""
    guard let found = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("chime-fuzz: set CHIME_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(64)
    }
    target = found
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if case .violated(let what) = target?.check(bytes) {
        fatalError("\(target?.name ?? ""): \(what)")
    }
    return 0
}
