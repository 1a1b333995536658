// Package filenames is the one list of the names that skillgit gives to what it writes in an
// agent folder and in an application project, where the two may be one folder (sync --dir .)
// and the project may be a skill repository too. A name is defined here and nowhere else, so
// that its test sees every name at once: none may be taken for another, and none may begin
// like what a sync removes as left behind. A sync once took the project's lock for its own
// folder's mutex of the same name, and removed it.
package filenames

// The files a sync keeps in an agent folder beside the skills.
const (
	// Manifest records the skills skillgit installed in the folder.
	Manifest = ".skillgit-manifest.json"
	// FolderMutex is held by the one sync that writes the folder, from the moment it reads
	// the manifest until it is done. Its name is the project lock's in no part.
	FolderMutex = ".skillgit-target.lock"
	// MutexBreak is held, for an instant, by the one process that clears a folder mutex its
	// dead owner left.
	MutexBreak = FolderMutex + ".break"
)

// The beginnings of the names of entries written for an instant, which only an interrupted
// command leaves behind.
const (
	// SkillTempPrefix begins a skill folder being written into an agent folder.
	SkillTempPrefix = ".skillgit-tmp-"
	// SkillOldPrefix begins a skill folder moved aside to be replaced or removed.
	SkillOldPrefix = ".skillgit-old-"
	// ManifestDraftPrefix begins the draft of a manifest, renamed over it once written.
	ManifestDraftPrefix = Manifest + ".tmp-"
	// FileTempPrefix begins the draft of a file written whole and renamed into place, such
	// as the project's lock or an agent instructions file.
	FileTempPrefix = ".tmp-"
)

// The files of an application project, at its top.
const (
	// SyncFile names the skill repository whose published skills the project installs.
	SyncFile = ".skillgit-sync.yaml"
	// ProjectLock pins what the project's agents run; it is committed with the project.
	ProjectLock = ".skillgit-sync.lock"
)

// The files of a skill repository, at the top of its working tree.
const (
	// Config is the repository configuration, committed on the publish branch.
	Config = ".skillgit.yaml"
	// PolicyDir holds the policy files beside the configuration.
	PolicyDir = ".skillgit"
)

// AgentFolderFiles are the files a sync keeps in an agent folder beside the skills.
func AgentFolderFiles() []string { return []string{Manifest, FolderMutex, MutexBreak} }

// AgentFolderLeftoverPrefixes begin the names of the entries a sync writes in an agent folder
// for an instant; an entry that begins with one is removed as left behind.
func AgentFolderLeftoverPrefixes() []string {
	return []string{SkillTempPrefix, SkillOldPrefix, ManifestDraftPrefix}
}

// Names are every name of a file or folder that skillgit writes where an agent folder, an
// application project and a skill repository may meet.
func Names() []string {
	return append(AgentFolderFiles(), SyncFile, ProjectLock, Config, PolicyDir)
}

// Prefixes begin the names of every entry that skillgit writes there for an instant.
func Prefixes() []string { return append(AgentFolderLeftoverPrefixes(), FileTempPrefix) }
