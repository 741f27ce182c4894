package heuristics

import (
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/xurls/v2"
)

// Find returns the findings in the prose of text in order of position (ties by kind), at
// most MaxPerKind of each kind. prose says which ranges are prose (nil: all of it); nothing is
// read from code, link targets, headings or markup, nor from inside a URL, because on
// technical documents those are where almost every wrong fact came from (link anchors as
// concepts, `$1 = 0` as money, `#include` as a hashtag, addresses in examples as persons).
//
// URLs are found by xurls; the other kinds by single-pass scanners anchored on trigger
// characters ('@', '#', digits, currency marks, month names) rather than regular expressions:
// Go's regexp ran at 3–40 MB/s on these patterns.
//
// A hashtag written in the text counts only as a trailing tag of its line ("… #budget"):
// measured on 3,400 real technical files, '#' words inside sentences left after every other
// rule (#defines, #sorted, #head, #name, #rrggbb) were all code, never tags.
func Find(text string, prose Prose, options ...Options) []Finding {
	var opts Options
	for _, o := range options {
		opts = o
	}
	if prose == nil {
		prose = func(int, int) bool { return true }
	}
	var out []Finding
	count := map[string]int{}
	var urls Spans
	urls = findURLs(text)
	// A finding must be prose and outside every URL (a date, address or anchor in a URL is
	// part of the URL, not a fact of its own).
	ok := func(s, e int) bool { return prose(s, e) && urls.Prose(s, e) }
	add := func(f Finding) {
		if (f.Kind == "url" || ok(f.ByteStart, f.ByteEnd)) && count[f.Kind] < MaxPerKind {
			count[f.Kind]++
			out = append(out, f)
		}
	}
	scanURLs(text, urls, prose, add)
	scanEmails(text, add)
	if !opts.NoHashtags {
		scanHashtags(text, add)
	}
	scanISODates(text, add)
	scanNamedDates(text, add)
	scanMoney(text, add)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ByteStart != out[j].ByteStart {
			return out[i].ByteStart < out[j].ByteStart
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// Options changes what Find looks for.
type Options struct {
	NoHashtags bool // do not report '#tag' words written in prose
}

func isDigit(b byte) bool  { return b >= '0' && b <= '9' }
func isLetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }
func isAlnum(b byte) bool  { return isDigit(b) || isLetter(b) }

// wordBoundary reports whether position i is not inside an ASCII word.
func wordBoundary(text string, i int) bool {
	return i <= 0 || i >= len(text) || !isAlnum(text[i-1]) || !isAlnum(text[i])
}

func scanEmails(text string, add func(Finding)) {
	for from := 0; ; {
		k := strings.IndexByte(text[from:], '@')
		if k < 0 {
			return
		}
		i := from + k
		from = i + 1
		s := i
		for s > 0 && (isAlnum(text[s-1]) || strings.IndexByte("._%+-", text[s-1]) >= 0) {
			s--
		}
		for s < i && !isAlnum(text[s]) { // a local part starts with a letter or digit
			s++
		}
		e := i + 1
		for e < len(text) && (isAlnum(text[e]) || text[e] == '-' || text[e] == '.') {
			e++
		}
		for e > i+1 && !isAlnum(text[e-1]) {
			e--
		}
		domain := text[i+1 : e]
		dot := strings.LastIndexByte(domain, '.')
		if s == i || dot <= 0 || len(domain)-dot-1 < 2 || !allLetters(domain[dot+1:]) {
			continue
		}
		from = e
		truncated := strings.HasPrefix(text[e:], "...") || strings.HasPrefix(text[e:], "…") // "ann@lee.o..." in a log
		// Glued to what comes before, it is part of something else: a channel
		// (#introspection@irc.gnome.org), a URL's user:password@host, a path.
		if s > 0 && strings.IndexByte("#:/=", text[s-1]) >= 0 {
			continue
		}
		if addr := strings.ToLower(text[s:e]); !truncated && Address(addr) != AddressNone && !listContext(text[max(0, s-60):s]) {
			add(Finding{Kind: "email", Value: addr, ByteStart: s, ByteEnd: e})
		}
	}
}

// listContext reports whether the words just before an address call it a mailing list
// ("the coreutils mailing list <coreutils@gnu.org>").
func listContext(before string) bool {
	b := strings.ToLower(before)
	return strings.Contains(b, "mailing list") || strings.Contains(b, "mailing-list")
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return s != ""
}

// urlRe finds web URLs with a scheme; xurls leaves out glued punctuation and does not match
// format strings such as "http://%s".
var urlRe = xurls.Strict()

// findURLs runs urlRe only on the lines that can hold a URL with a scheme ("://" or
// "mailto:"): the expression (every top-level domain in one alternation) runs at about 1 MB/s,
// and over whole documents it made fact finding 55 times slower (5.6 ms for 5 KB); most lines
// hold no URL at all.
func findURLs(text string) Spans {
	var out Spans
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if line := text[start:end]; strings.Contains(line, "://") || strings.Contains(line, "mailto:") {
			for _, u := range urlRe.FindAllStringIndex(line, -1) {
				out = append(out, Span{start + u[0], start + u[1]})
			}
		}
		start = end + 1
	}
	return out
}

// scanURLs keeps the http(s) and ftp URLs that lie in prose and do not point at an example or
// local host (example.com, localhost, 127.0.0.1): those are illustrations, not references.
func scanURLs(text string, urls Spans, prose Prose, add func(Finding)) {
	for _, u := range urls {
		for _, q := range []string{"’", "”", "»", "'"} { // closing quotes xurls keeps
			if strings.HasSuffix(text[u.Start:u.End], q) {
				u.End -= len(q)
			}
		}
		v := text[u.Start:u.End]
		scheme, rest, found := strings.Cut(v, "://")
		if !found || !prose(u.Start, u.End) {
			continue
		}
		switch strings.ToLower(scheme) {
		case "http", "https", "ftp":
		default:
			continue
		}
		host := rest
		if i := strings.IndexAny(host, "/?#"); i >= 0 {
			host = host[:i]
		}
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		if i := strings.LastIndexByte(host, ':'); i >= 0 {
			host = host[:i]
		}
		if exampleHost(strings.ToLower(host)) || !strings.Contains(host, ".") || strings.ContainsAny(host, "%{}$<>") {
			continue
		}
		add(Finding{Kind: "url", Value: v, ByteStart: u.Start, ByteEnd: u.End})
	}
}

// scanHashtags finds tags written in a sentence: '#' after a space, with words before it on
// the line, not a heading or directive (#include), not a colour (#fff), an issue number (#12),
// an anchor or slug (#net-connect) or a private field (obj.#x).
func scanHashtags(text string, add func(Finding)) {
	for from := 0; ; {
		k := strings.IndexByte(text[from:], '#')
		if k < 0 {
			return
		}
		i := from + k
		from = i + 1
		if i == 0 || i+1 >= len(text) || !isLetter(text[i+1]) || (text[i-1] != ' ' && text[i-1] != '\t') {
			continue
		}
		ls := strings.LastIndexByte(text[:i], '\n') + 1
		if before := strings.TrimSpace(text[ls:i]); before == "" || strings.HasPrefix(before, "#") || !isLetter(before[len(before)-1]) && strings.IndexByte(",;:.!?)", before[len(before)-1]) < 0 {
			continue
		}
		e := i + 1
		for e < len(text) && (isAlnum(text[e]) || text[e] == '_') {
			e++
		}
		tag := strings.ToLower(text[i+1 : e])
		if n := e - i - 1; n < 2 || n > 40 || e < len(text) && strings.IndexByte("-(/[:=.@#", text[e]) >= 0 && !(text[e] == '.' && (e+1 == len(text) || text[e+1] == ' ' || text[e+1] == '\n')) {
			continue
		}
		if hexColour(tag) || directive(tag) || codeTag(text[i+1:e]) || ircChannel(text[ls:i]) || !trailingTags(text, e) {
			continue
		}
		add(Finding{Kind: "hashtag", Value: tag, ByteStart: i, ByteEnd: e})
		from = e
	}
}

// trailingTags reports whether only more tags, spaces and closing punctuation follow a tag to
// the end of a line that closes its paragraph ("… renewal. #budget #q3"): that is how people
// tag a note, while a '#' word inside a sentence on technical pages named code ("add #sorted,
// remove #enum").
func trailingTags(text string, e int) bool {
	le := strings.IndexByte(text[e:], '\n')
	if le < 0 {
		le = len(text) - e
	}
	for _, w := range strings.Fields(text[e : e+le]) {
		if w[0] != '#' && strings.Trim(w, ".!)") != "" {
			return false
		}
	}
	// …and the line ends its paragraph: a wrapped sentence goes on below it.
	next := e + le + 1
	if next >= len(text) {
		return true
	}
	nl := strings.IndexByte(text[next:], '\n')
	if nl < 0 {
		nl = len(text) - next
	}
	return strings.TrimSpace(text[next:next+nl]) == ""
}

var directives = map[string]bool{"include": true, "define": true, "if": true, "ifdef": true, "ifndef": true, "endif": true, "else": true,
	"elif": true, "pragma": true, "undef": true, "error": true, "warning": true, "line": true, "import": true}

// directive recognises a C preprocessor directive and the words made from one in prose about
// code ("#defines", "#included", "a forest of #ifdefs", "#ifdeffery").
func directive(tag string) bool {
	for d := range directives {
		if strings.HasPrefix(tag, d) && (len(d) > 2 || len(tag) <= 3) {
			return true
		}
	}
	return false
}

// codeTag recognises a '#' word that names code rather than a topic: an identifier with an
// underscore, an all-capitals name (#DB, #MISSING), a hex literal (#x1F) or a two-letter
// mnemonic (#GP, #pf).
func codeTag(raw string) bool {
	if len(raw) <= 2 || strings.IndexByte(raw, '_') >= 0 || strings.ToUpper(raw) == raw {
		return true
	}
	return raw[0] == 'x' && len(raw) > 2 && hexDigits(raw[1:])
}

func hexDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && ((s[i]|0x20) < 'a' || (s[i]|0x20) > 'f') {
			return false
		}
	}
	return true
}

// ircChannel reports whether the words before a '#' name a chat channel ("IRC #pyyaml").
func ircChannel(before string) bool {
	b := strings.ToLower(before)
	return strings.Contains(b, "irc") || strings.Contains(b, "channel") || strings.Contains(b, "freenode") || strings.Contains(b, "libera")
}

func hexColour(s string) bool {
	if n := len(s); n != 3 && n != 4 && n != 6 && n != 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && (s[i] < 'a' || s[i] > 'f') {
			return false
		}
	}
	return true
}

func digitsAt(text string, i, n int) bool {
	if i < 0 || i+n > len(text) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isDigit(text[k]) {
			return false
		}
	}
	return true
}

func scanISODates(text string, add func(Finding)) {
	for from := 0; ; {
		k := strings.IndexByte(text[from:], '-')
		if k < 0 {
			return
		}
		i := from + k - 4 // the year before the first dash
		from += k + 1
		if i < 0 || !wordBoundary(text, i) || !digitsAt(text, i, 4) || i+10 > len(text) || text[i+7] != '-' ||
			!digitsAt(text, i+5, 2) || !digitsAt(text, i+8, 2) || !wordBoundary(text, i+10) {
			continue
		}
		if d, ok := date(text[i:i+4], text[i+5:i+7], text[i+8:i+10]); ok {
			add(Finding{Kind: "date", Value: d, ByteStart: i, ByteEnd: i + 10})
			from = i + 10
		}
	}
}

var fullMonths = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// monthOf recognises a month name or its abbreviation ("mar", "march", "sept").
func monthOf(word string) (string, bool) {
	if len(word) < 3 || len(word) > 9 || strings.IndexByte("jfmasondJFMASOND", word[0]) < 0 {
		return "", false
	}
	var buf [9]byte
	for i := 0; i < len(word); i++ {
		buf[i] = word[i] | 0x20 // ASCII letters only reach here
	}
	lw := string(buf[:len(word)])
	if m, ok := months[lw]; ok {
		return strconv.Itoa(int(m) + 100)[1:], true
	}
	for i, full := range fullMonths {
		if len(lw) > 3 && strings.HasPrefix(full, lw) {
			return strconv.Itoa(i + 101)[1:], true
		}
	}
	return "", false
}

// scanNamedDates finds "14 March 2025", "14th Mar. 2025", "March 14, 2025" and "Mar 14 2025".
func scanNamedDates(text string, add func(Finding)) {
	for i := 0; i < len(text); i++ {
		if !isLetter(text[i]) {
			continue
		}
		e := i
		for e < len(text) && isLetter(text[e]) {
			e++
		}
		if i > 0 && isLetter(text[i-1]) {
			i = e - 1
			continue
		}
		mon, ok := monthOf(text[i:e])
		if !ok {
			i = e - 1
			continue
		}
		after := e
		if after < len(text) && text[after] == '.' {
			after++
		}
		if ds, day := dayBefore(text, i); ds >= 0 {
			if ye, year := yearAfter(text, after); ye > 0 {
				if d, ok := date(year, mon, day); ok {
					add(Finding{Kind: "date", Value: d, ByteStart: ds, ByteEnd: ye})
					i = ye - 1
					continue
				}
			}
		}
		if de, day := dayAfter(text, after); de > 0 {
			if ye, year := yearAfter(text, de); ye > 0 {
				if d, ok := date(year, mon, day); ok {
					add(Finding{Kind: "date", Value: d, ByteStart: i, ByteEnd: ye})
					i = ye - 1
					continue
				}
			}
		}
		i = e - 1
	}
}

func skipSpaces(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

func ordinalSuffix(s string) bool {
	s = strings.ToLower(s)
	return s == "st" || s == "nd" || s == "rd" || s == "th"
}

// dayBefore reads "14 " or "14th " that ends where the month word at i starts.
func dayBefore(text string, i int) (int, string) {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	if j == i {
		return -1, ""
	}
	if j >= 2 && ordinalSuffix(text[j-2:j]) {
		j -= 2
	}
	e := j
	for j > 0 && isDigit(text[j-1]) && e-j < 2 {
		j--
	}
	if j == e || (j > 0 && isAlnum(text[j-1])) {
		return -1, ""
	}
	day, _ := strconv.Atoi(text[j:e])
	return j, strconv.Itoa(day + 100)[1:]
}

func dayAfter(text string, i int) (int, string) {
	j := skipSpaces(text, i)
	if j == i {
		return 0, ""
	}
	s := j
	for j < len(text) && isDigit(text[j]) && j-s < 2 {
		j++
	}
	if j == s || (j < len(text) && isDigit(text[j])) {
		return 0, ""
	}
	day, _ := strconv.Atoi(text[s:j])
	if j+2 <= len(text) && ordinalSuffix(text[j:j+2]) {
		j += 2
	}
	return j, strconv.Itoa(day + 100)[1:]
}

func yearAfter(text string, i int) (int, string) {
	j := i
	if j < len(text) && text[j] == ',' {
		j++
	}
	k := skipSpaces(text, j)
	if k == j || !digitsAt(text, k, 4) || !wordBoundary(text, k+4) {
		return 0, ""
	}
	return k + 4, text[k : k+4]
}

var codes = map[string]bool{"USD": true, "EUR": true, "GBP": true, "CHF": true, "JPY": true, "CAD": true, "AUD": true}

// scanMoney finds an amount next to a currency: "€1,500.00", "$20", "300 EUR", "USD 1,000.50".
func scanMoney(text string, add func(Finding)) {
	lastEnd := -1
	emit := func(s, e int, num, cur string) {
		if s < lastEnd {
			return
		}
		amt, err := strconv.ParseFloat(stripSeparators(num), 64)
		if err != nil {
			return
		}
		lastEnd = e
		add(Finding{Kind: "money", Value: strconv.FormatFloat(amt, 'f', 2, 64) + " " + cur, Amount: amt, Currency: cur, ByteStart: s, ByteEnd: e})
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '$' || c == 0xE2 || c == 0xC2: // $, € (E2 82 AC), £ (C2 A3), ¥ (C2 A5)
			sym, w := symbolAt(text, i)
			if w == 0 {
				continue
			}
			if i > 0 && (isAlnum(text[i-1]) || strings.IndexByte("$\\{\"'`", text[i-1]) >= 0) {
				continue
			}
			j := i + w
			if sym != "$" {
				j = skipSpaces(text, j)
			}
			if ne, num := numberAt(text, j); ne > 0 && (sym != "$" || dollarAmount(text, num, ne)) {
				emit(i, ne, num, symbols[sym])
				i = ne - 1
			}
		case c >= 'A' && c <= 'Z' && (i == 0 || !isAlnum(text[i-1])) && i+3 <= len(text) && codes[text[i:i+3]] && wordBoundary(text, i+3):
			j := skipSpaces(text, i+3)
			if ne, num := numberAt(text, j); ne > 0 {
				emit(i, ne, num, text[i:i+3])
				i = ne - 1
			}
		case isDigit(c):
			if i > 0 && (isAlnum(text[i-1]) || text[i-1] == '.' || text[i-1] == ',') {
				continue
			}
			ne, num := numberAt(text, i)
			if ne <= 0 {
				for i+1 < len(text) && isDigit(text[i+1]) {
					i++
				}
				continue
			}
			j := skipSpaces(text, ne)
			if j+3 <= len(text) && codes[text[j:j+3]] && wordBoundary(text, j+3) {
				emit(i, j+3, num, text[j:j+3])
				i = j + 2
			} else if sym, w := symbolAt(text, j); w > 0 && sym != "$" {
				emit(i, j+w, num, symbols[sym])
				i = j + w - 1
			} else {
				i = ne - 1
			}
		}
	}
}

// dollarAmount tells an amount in dollars ("$20", "$1,500", "$4.99") from a shell, regex or
// debugger variable ("$1 = 0", "$2"): a single digit without cents is a variable, and so is
// anything followed by an assignment or a brace.
//
// Cents ("$4.99") make an amount; a bare integer ("$350") needs money words around it
// ("Price is $350", "a fee of $50", "$2 million"), because "$44" and "print $11" in program
// output are variables too.
func dollarAmount(text, num string, end int) bool {
	rest := strings.TrimLeft(text[end:min(len(text), end+4)], " ")
	if rest != "" && strings.IndexByte("=}]:;", rest[0]) >= 0 {
		return false
	}
	if dot := strings.IndexByte(num, '.'); dot >= 0 {
		return len(num)-dot-1 == 2
	}
	start := end - len(num) - 1
	return moneyContext(strings.ToLower(text[max(0, start-40):start]) + " " + strings.ToLower(text[end:min(len(text), end+24)]))
}

var moneyWords = []string{"price", "cost", "pay", "paid", "fee", "fund", "budget", "salary", "donat", "worth", "charge", "spend", "spent",
	"buy", "bought", "sell", "sold", "purchase", "dollar", "usd", "invoice", "total", "amount", "million", "billion", "thousand",
	"per month", "per year", "a month", "a year", "/month", "/year", "rent", "bill", "refund", "discount", "save", "earn", "raise"}

func moneyContext(s string) bool {
	for _, w := range moneyWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// stripSeparators drops thousands separators (',' and ' ').
func stripSeparators(num string) string {
	if strings.IndexAny(num, ", ") < 0 {
		return num
	}
	b := make([]byte, 0, len(num))
	for i := 0; i < len(num); i++ {
		if num[i] != ',' && num[i] != ' ' {
			b = append(b, num[i])
		}
	}
	return string(b)
}

func symbolAt(text string, i int) (string, int) {
	for _, sym := range []string{"$", "€", "£", "¥"} {
		if strings.HasPrefix(text[i:], sym) {
			return sym, len(sym)
		}
	}
	return "", 0
}

// numberAt reads "1,500.00", "1500", "1 500.5" at i; it returns the end and the text.
func numberAt(text string, i int) (int, string) {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	if j == i {
		return 0, ""
	}
	if j-i <= 3 { // thousands groups: ",ddd" or " ddd"
		for j+4 <= len(text) && (text[j] == ',' || text[j] == ' ') && digitsAt(text, j+1, 3) && !digitsAt(text, j+4, 1) {
			j += 4
		}
	}
	if j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
		k := j + 1
		for k < len(text) && isDigit(text[k]) && k-j <= 2 {
			k++
		}
		if k < len(text) && isDigit(text[k]) {
			return 0, ""
		}
		j = k
	}
	if j < len(text) && isAlnum(text[j]) {
		return 0, ""
	}
	return j, text[i:j]
}
