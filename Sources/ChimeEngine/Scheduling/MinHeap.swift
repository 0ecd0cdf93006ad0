/// A binary min-heap, smallest first.
///
/// Insertion and removal of the minimum are O(log n), so a burst of a hundred thousand requests due
/// within seconds costs microseconds each. Removal of an arbitrary element is left to the caller
/// (`SchedulerTimeline` skips stale entries when they reach the top).
struct MinHeap<Element: Comparable & Sendable>: Sendable {
    private(set) var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }
    var minimum: Element? { elements.first }

    mutating func insert(_ fire: Element) {
        elements.append(fire)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeMinimum() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let minimum = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count && elements[left] < elements[smallest] { smallest = left }
            if right < elements.count && elements[right] < elements[smallest] { smallest = right }
            if smallest == parent { break }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
        return minimum
    }

    mutating func removeAll() {
        elements.removeAll()
    }
}
