import Testing

/// The seeds' iOS code, compiled as written (UIKit replaced by stand-ins) and run against a center on an
/// in-memory store, a manual clock, a simulated user and a recording presenter.
///
/// One at a time: the seeds print to one console, and the alarm keeps its state in a static property.
@Suite("The seeds' code", .serialized)
struct SeedTests {}
