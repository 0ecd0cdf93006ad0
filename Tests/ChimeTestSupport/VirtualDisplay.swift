public import Foundation

/// An X server without a screen (Xvfb) on a free display, and screenshots of it taken with ImageMagick's
/// `import`.
public final class VirtualDisplay: Sendable {
    public static let width = 800
    public static let height = 600

    /// `:N`.
    public let name: String
    private let server: ChildProcess

    private init(name: String, server: ChildProcess) {
        self.name = name
        self.server = server
    }

    /// Starts Xvfb on a display number it picks itself (`-displayfd`), so tests never collide.
    public static func start() async throws -> VirtualDisplay {
        let xvfb = try Tool.path("Xvfb", package: "xvfb")
        _ = try Tool.path("import", package: "imagemagick")
        let server = try ChildProcess(
            xvfb, ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"], name: "Xvfb")
        do {
            let number = try await server.output.take("the display number") { Int($0.trimmingCharacters(in: .whitespaces)) != nil }
            return VirtualDisplay(name: ":" + number.trimmingCharacters(in: .whitespaces), server: server)
        } catch {
            await server.stop()
            throw error
        }
    }

    public var environment: [String: String] { ["DISPLAY": name] }

    /// The whole screen now.
    public func screenshot() async throws -> Screenshot {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-shot-\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: file) }
        let capture = try ChildProcess(
            Tool.path("import", package: "imagemagick"), ["-display", name, "-window", "root", "-depth", "8", file.path], environment: environment,
            name: "import")
        let status = await capture.exitStatus()
        guard status == 0 else {
            throw Screenshot.Unreadable(description: "import exited with \(status): \(capture.errors.lines.joined(separator: " "))")
        }
        return try Screenshot(ppm: Array(try Data(contentsOf: file)))
    }

    public func stop() async {
        await server.stop()
    }
}

/// A screenshot's pixels (binary PPM, `P6`).
public struct Screenshot: Sendable {
    public struct Color: Sendable, Hashable {
        public let red: UInt8
        public let green: UInt8
        public let blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// A rectangle of pixels, `maxX`/`maxY` included.
    public struct Box: Sendable, Hashable, CustomStringConvertible {
        public var minX: Int, minY: Int, maxX: Int, maxY: Int

        public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }
        public var width: Int { maxX - minX + 1 }
        public var height: Int { maxY - minY + 1 }
        public var description: String { "(\(minX), \(minY))–(\(maxX), \(maxY))" }
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    public let width: Int
    public let height: Int
    private let pixels: [UInt8]

    public init(ppm data: [UInt8]) throws {
        // "P6" <ws> width <ws> height <ws> maxval <one ws> then width*height*3 bytes.
        var index = 0
        func token() throws -> String {
            while index < data.count, data[index] == UInt8(ascii: "#") || Character(UnicodeScalar(data[index])).isWhitespace {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count, data[index] != UInt8(ascii: "\n") { index += 1 }
                }
                index += 1
            }
            let start = index
            while index < data.count, !Character(UnicodeScalar(data[index])).isWhitespace { index += 1 }
            return String(decoding: data[start..<index], as: UTF8.self)
        }
        guard try token() == "P6", let width = Int(try token()), let height = Int(try token()), try token() == "255" else {
            throw Unreadable(description: "not a binary 8-bit PPM (\(data.count) bytes)")
        }
        index += 1
        guard data.count - index >= width * height * 3 else { throw Unreadable(description: "a PPM shorter than its size") }
        self.width = width
        self.height = height
        pixels = Array(data[index..<(index + width * height * 3)])
    }

    public func color(x: Int, y: Int) -> Color {
        let offset = (y * width + x) * 3
        return Color(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
    }

    /// The smallest box around every pixel of `color`, and how many there are; `nil` when there are none.
    public func box(of color: Color) -> (box: Box, count: Int)? {
        var box: Box?
        var count = 0
        for y in 0..<height {
            for x in 0..<width where self.color(x: x, y: y) == color {
                count += 1
                if var found = box {
                    found.minX = min(found.minX, x)
                    found.maxX = max(found.maxX, x)
                    found.maxY = y
                    box = found
                } else {
                    box = Box(minX: x, minY: y, maxX: x, maxY: y)
                }
            }
        }
        return box.map { ($0, count) }
    }

    /// How many pixels in `box` are near white (text drawn in white, anti-aliased at its edges).
    public func lightPixels(in box: Box) -> Int {
        var count = 0
        for y in box.minY...box.maxY {
            for x in box.minX...box.maxX {
                let pixel = color(x: x, y: y)
                if pixel.red > 200 && pixel.green > 200 && pixel.blue > 200 { count += 1 }
            }
        }
        return count
    }
}
