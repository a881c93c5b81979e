// Package rooms holds, one file each, ways a package may listen or serve
// and one way it may only dial, for TestServesFindsEveryWayToListen.
// Nothing under testdata is built.
package rooms
