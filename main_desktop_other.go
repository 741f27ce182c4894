//go:build desktop && !linux

package main

func setProgramName(string) {}

var appIcon []byte
