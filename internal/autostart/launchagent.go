package autostart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// launchAgentLocation is ~/Library/LaunchAgents/<Label>.plist: launchd loads every plist
// there when the user logs in.
func launchAgentLocation(env Env) (string, error) {
	if !filepath.IsAbs(env.Home) { // unset, or a folder under the working directory
		return "", errNoHome
	}
	return filepath.Join(env.Home, "Library", "LaunchAgents", Label+".plist"), nil
}

// LaunchAgent is the property list that makes launchd run e once at login (RunAtLoad), in the
// person's graphical session only (LimitLoadToSessionType Aqua), as an interactive process,
// and not again when it quits (no KeepAlive: Quit means quit).
func LaunchAgent(e Entry) []byte {
	var b bytes.Buffer
	str := func(s string) string {
		var x bytes.Buffer
		_ = xml.EscapeText(&x, []byte(s)) // writes to a bytes.Buffer cannot fail
		return "<string>" + x.String() + "</string>"
	}
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString("<plist version=\"1.0\">\n<dict>\n")
	b.WriteString("\t<key>Label</key>\n\t" + str(Label) + "\n")
	b.WriteString("\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, a := range append([]string{e.Program}, e.Args...) {
		b.WriteString("\t\t" + str(a) + "\n")
	}
	b.WriteString("\t</array>\n")
	b.WriteString("\t<key>RunAtLoad</key>\n\t<true/>\n")
	b.WriteString("\t<key>LimitLoadToSessionType</key>\n\t" + str("Aqua") + "\n")
	b.WriteString("\t<key>ProcessType</key>\n\t" + str("Interactive") + "\n")
	b.WriteString("</dict>\n</plist>\n")
	return b.Bytes()
}

// readLaunchAgent reads back the program and arguments of a LaunchAgent's ProgramArguments.
func readLaunchAgent(b []byte) ([]string, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var args []string
	var lastKey string
	inArgs := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return args, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read the LaunchAgent: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "key":
				var k string
				if err := d.DecodeElement(&k, &t); err != nil {
					return nil, fmt.Errorf("read the LaunchAgent: %w", err)
				}
				lastKey = strings.TrimSpace(k)
			case "array":
				inArgs = lastKey == "ProgramArguments"
			case "string":
				var s string
				if err := d.DecodeElement(&s, &t); err != nil {
					return nil, fmt.Errorf("read the LaunchAgent: %w", err)
				}
				if inArgs {
					args = append(args, s)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "array" {
				inArgs = false
				lastKey = ""
			}
		}
	}
}
