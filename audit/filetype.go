package audit

import (
	"archive/zip"
	"bytes"
	"path"
	"strings"
	"unicode/utf8"
)

// binType names what the first bytes of a binary file say it is.
// binImage stands for every inert asset: images, fonts, audio, video and
// data files that nothing runs.
type binType int

const (
	binNone       binType = iota // text
	binUnknown                   // binary of no known type
	binImage                     // images and fonts: inert assets
	binPDF                       // may carry scripts: scanned for them
	binOffice                    // OOXML / OpenDocument: a zip, checked for macros
	binOLE                       // legacy Office container: may carry macros
	binArchive                   // zip, tar, gzip, 7z, rar ...
	binExecutable                // native executables and bytecode
)

type magic struct {
	off  int
	sig  string
	kind binType
	name string
}

var magics = []magic{
	{0, "\x7fELF", binExecutable, "ELF executable"},
	{0, "MZ", binExecutable, "Windows executable"},
	{0, "\xfe\xed\xfa\xce", binExecutable, "Mach-O executable"},
	{0, "\xfe\xed\xfa\xcf", binExecutable, "Mach-O executable"},
	{0, "\xce\xfa\xed\xfe", binExecutable, "Mach-O executable"},
	{0, "\xcf\xfa\xed\xfe", binExecutable, "Mach-O executable"},
	{0, "\xca\xfe\xba\xbe", binExecutable, "Java class or Mach-O universal binary"},
	{0, "\x00asm", binExecutable, "WebAssembly module"},
	{0, "dex\n", binExecutable, "Android bytecode"},
	{0, "\x89PNG\r\n\x1a\n", binImage, "PNG image"},
	{0, "\xff\xd8\xff", binImage, "JPEG image"},
	{0, "GIF8", binImage, "GIF image"},
	{0, "BM", binImage, "BMP image"},
	{0, "\x00\x00\x01\x00", binImage, "icon"},
	{0, "wOFF", binImage, "WOFF font"},
	{0, "wOF2", binImage, "WOFF2 font"},
	{0, "\x00\x01\x00\x00", binImage, "TrueType font"},
	{0, "OTTO", binImage, "OpenType font"},
	{0, "ttcf", binImage, "TrueType font collection"},
	{0, "II*\x00", binImage, "TIFF image"},
	{0, "MM\x00*", binImage, "TIFF image"},
	{0, "8BPS", binImage, "Photoshop image"},
	{0, "icns", binImage, "icon"},
	{0, "\x00\x00\x02\x00", binImage, "cursor"},
	{0, "ID3", binImage, "MP3 audio"},
	{0, "OggS", binImage, "Ogg audio or video"},
	{0, "fLaC", binImage, "FLAC audio"},
	{0, "\x1aE\xdf\xa3", binImage, "Matroska or WebM video"},
	{4, "ftyp", binImage, "MP4, QuickTime or HEIF media"},
	{0, "SQLite format 3\x00", binImage, "SQLite database"},
	{0, "PAR1", binImage, "Parquet data"},
	{0, "\x93NUMPY", binImage, "NumPy array"},
	{0, "%PDF-", binPDF, "PDF document"},
	{0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", binOLE, "legacy Office document"},
	{0, "PK\x03\x04", binArchive, "zip archive"},
	{0, "PK\x05\x06", binArchive, "zip archive"},
	{0, "\x1f\x8b", binArchive, "gzip archive"},
	{0, "BZh", binArchive, "bzip2 archive"},
	{0, "\xfd7zXZ\x00", binArchive, "xz archive"},
	{0, "7z\xbc\xaf\x27\x1c", binArchive, "7-Zip archive"},
	{0, "Rar!\x1a\x07", binArchive, "RAR archive"},
	{0, "\x28\xb5\x2f\xfd", binArchive, "zstd archive"},
	{0, "MSCF", binArchive, "cabinet archive"},
	{0, "xar!", binArchive, "xar archive"},
	{257, "ustar", binArchive, "tar archive"},
}

// sniff returns the type of data's first bytes and a name for it.
func sniff(data []byte) (binType, string) {
	if isRIFF(data, "WEBP") {
		return binImage, "WebP image"
	}
	if isRIFF(data, "WAVE") || isRIFF(data, "AVI ") {
		return binImage, "RIFF audio or video"
	}
	if len(data) >= 2 && data[0] == 0xff && data[1]&0xe0 == 0xe0 && data[1] != 0xff && !looksText(data) {
		return binImage, "MPEG audio"
	}
	for _, m := range magics {
		if len(data) >= m.off+len(m.sig) && string(data[m.off:m.off+len(m.sig)]) == m.sig {
			if m.sig == "MZ" && !looksPE(data) {
				continue
			}
			return m.kind, m.name
		}
	}
	if looksText(data) {
		return binNone, ""
	}
	return binUnknown, "binary data"
}

func isRIFF(data []byte, form string) bool {
	return len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == form
}

// looksPE tells a Windows executable from a text file that starts with "MZ".
func looksPE(data []byte) bool {
	return len(data) >= 64 && bytes.IndexByte(data[:64], 0) >= 0
}

// looksText reports whether data is text: UTF-8 or UTF-16 with a byte
// order mark, and free of NUL bytes in the UTF-8 case. A cut-off rune at
// the end is allowed, since data may be the first part of a file.
func looksText(data []byte) bool {
	if isUTF16(data) {
		return true
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return false
	}
	if utf8.Valid(data) {
		return true
	}
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 {
			return len(data) < utf8.UTFMax && !utf8.FullRune(data)
		}
		data = data[size:]
	}
	return true
}

func isUTF16(data []byte) bool {
	return len(data) >= 2 && (data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff)
}

var (
	imageExts = set("png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "woff", "woff2", "ttf", "otf")
	// inertExts name the inert assets the audit recognises by their bytes;
	// such bytes under another name may be a polyglot that a shell runs.
	inertExts = set("png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "cur", "icns", "tif", "tiff", "psd", "heic", "heif", "avif",
		"woff", "woff2", "ttf", "otf", "ttc", "mp3", "wav", "ogg", "oga", "opus", "flac", "m4a", "aac", "mp4", "m4v", "mov",
		"webm", "mkv", "avi", "sqlite", "sqlite3", "db", "parquet", "npy")
	officeExt = set("docx", "xlsx", "pptx", "odt", "ods", "odp", "docm", "xlsm", "pptm", "dotm", "xltm", "potm")
	macroExts = set("docm", "xlsm", "pptm", "dotm", "xltm", "potm")
	scriptExt = set("sh", "bash", "zsh", "fish", "ksh", "csh", "py", "pyw", "js", "mjs", "cjs", "ts", "mts",
		"rb", "pl", "pm", "php", "ps1", "psm1", "psd1", "bat", "cmd", "vbs", "vbe", "wsf", "lua", "tcl",
		"applescript", "scpt", "command", "jsx", "tsx", "r", "groovy", "swift", "go", "rs", "java", "kt",
		"cs", "c", "cc", "cpp", "h")
	proseExts  = set("md", "markdown", "mdx", "txt", "rst", "adoc", "org", "text")
	markupExts = set("html", "htm", "xhtml", "svg", "xml", "xsl", "xslt", "xsd", "dtd", "rng", "rnc", "wsdl", "xaml",
		"plist", "resx", "csproj", "vbproj", "props", "targets", "nuspec", "kml", "gpx", "rss", "atom", "xlf", "xliff")
	htmlExts = set("html", "htm", "xhtml", "svg")
	// codeExts are source and style files that nothing runs directly:
	// neither prose an agent reads as instructions nor scripts.
	codeExts = set("css", "scss", "sass", "less", "sql", "graphql", "gql", "proto", "vue", "svelte", "astro",
		"hbs", "handlebars", "mustache", "j2", "jinja", "jinja2", "tmpl", "tpl", "ejs", "liquid", "twig",
		"gradle", "cmake", "mk", "dart", "scala", "m", "mm", "hpp", "hh", "cxx", "ex", "exs", "erl", "hs",
		"ml", "clj", "nim", "zig", "sol", "tf", "hcl", "bicep", "prisma", "ipynb", "patch", "diff")
	dataExts   = set("json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "csv", "tsv", "properties", "lock")
	bytecodeEx = set("pyc", "pyo", "class", "dex", "wasm", "elc", "beam")
	binaryExts = set("exe", "dll", "so", "dylib", "bin", "o", "a", "lib", "msi", "dmg", "pkg", "deb", "rpm",
		"apk", "appimage", "jar", "war", "zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar", "zst", "cab", "iso", "img", "scr", "com")
)

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}

func extOf(name string) string {
	return strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
}

// kindOf classifies a text file by its name and first line.
func kindOf(name string, head []byte) fileKind {
	ext := extOf(name)
	base := strings.ToLower(path.Base(name))
	switch {
	case scriptExt[ext], bytes.HasPrefix(head, []byte("#!")),
		base == "makefile", base == "dockerfile", base == "justfile", base == "rakefile":
		return kindScript
	case markupExts[ext]:
		return kindMarkup
	case dataExts[ext], codeExts[ext], strings.HasPrefix(base, ".env"):
		return kindData
	}
	return kindProse
}

// zipHasMacros reports whether an Office zip holds a VBA project, and
// whether data could be read as a zip at all.
func zipHasMacros(data []byte) (macros, ok bool) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return false, false
	}
	for i, f := range zr.File {
		if i > 10000 {
			break
		}
		if strings.HasSuffix(strings.ToLower(f.Name), "vbaproject.bin") {
			return true, true
		}
	}
	return false, true
}
