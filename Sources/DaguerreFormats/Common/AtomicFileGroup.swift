// Files that appear together or not at all: a Live Photo's still and movie, a Motion Photo made
// beside them. Their writers finish them as usual, each on its own queue; the group then gives
// them their names under one lock.
import DaguerreCore

/// Holds the commits of the files written to `destinations` until ``commit()``, which names
/// them all at once; ``abandon()`` (or releasing the group) discards the ones finished.
///
/// Each ``AtomicFile`` whose destination is in the group is finished as usual (``AtomicFile/finish()``
/// returns), but stays unnamed until the group commits. A process killed before that leaves
/// none of them; one killed in the commit itself (a few system calls) can leave the first
/// ones. SIGINT and SIGTERM never split a group: the interruption takes the same lock.
///
/// ```swift
/// let group = try AtomicFileGroup(destinations: ["IMG_0001.JPG", "IMG_0001.MOV"])
/// try AtomicFile.write(jpeg, to: "IMG_0001.JPG")     // finished, not yet visible
/// _ = try recorder.finish()                         // the movie, likewise
/// try group.commit()                                // both appear
/// ```
public final class AtomicFileGroup: Sendable {
    public let destinations: [String]

    /// Holds the destinations; throws when another group holds one of them.
    public init(destinations: [String]) throws(DaguerreError) {
        self.destinations = destinations
        try WriteRegistry.shared.hold(destinations, for: ObjectIdentifier(self))
    }

    deinit { WriteRegistry.shared.abandonGroup(ObjectIdentifier(self), destinations: destinations) }

    /// Names every file of the group. Throws (and leaves none of them) when one was not
    /// finished or cannot be named.
    public func commit() throws(DaguerreError) {
        try WriteRegistry.shared.commitGroup(ObjectIdentifier(self), destinations: destinations)
    }

    /// Discards the group's finished files; their destinations are untouched.
    public func abandon() {
        WriteRegistry.shared.abandonGroup(ObjectIdentifier(self), destinations: destinations)
    }
}
