// Package watch finds the files under a folder that Strata should read and, as it grows,
// watches them for changes.
package watch
