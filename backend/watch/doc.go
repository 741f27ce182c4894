// Package watch turns file-system notifications into settled, per-file events for the engine.
//
// fsnotify reports raw kernel events: one watch per directory (it is not recursive), several
// events per save, renames as two unrelated halves, chmod floods, and an overflow error when the
// kernel queue fills. The engine wants something else: "this file has new content" or "this
// file is gone", once, after the writer has finished. A Watcher sits between the two:
//
//   - every directory under a root gets its own watch; a new directory is watched before it is
//     listed, so a file created between mkdir and the watch is found by the listing and one
//     created after it is reported by the watch;
//   - a raw event only marks its path dirty; the path is looked at once it has been quiet for
//     Options.Debounce (longer after a long burst of writes: a quarter of the burst, at most
//     Options.MaxDebounce) and its size and mtime have held still for Options.Settle. What is
//     reported comes from comparing the file on disk with what the watcher last saw, not from
//     the raw event, so chmod-only events, editor temp files and save-by-rename sequences
//     collapse into the one event that matters;
//   - the watcher remembers the files of every directory, so deleting or moving a directory
//     reports each file that was in it;
//   - when the kernel drops events (overflow) the root is rescanned; when inotify limits are
//     reached the root is polled instead, and Status says so.
//
// Roots are independent: each has its own notification instance and its own goroutine, so an
// overflow or a limit hit in one root does not disturb the others.
//
// Paths are reported absolute and cleaned, under the root as it was given to Add (symlinks in
// the root path are not resolved).
package watch
