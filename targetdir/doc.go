// Package targetdir owns one agent folder, such as .claude/skills, .agents/skills or a
// folder named by sync --dir: it takes the folder's mutex, plans what a sync changes there,
// applies the plan through a Writer, keeps the manifest of what it installed, inspects and
// verifies the installed skills, clears what an interrupted sync left behind, and keeps the
// block of installed skills in an agent instructions file.
//
// Every entry of the folder is reached through an os.Root, so nothing outside it is read or
// written, and every change is made in one step (a temporary entry renamed into place), so an
// agent reading the folder sees a skill's old version or its new one, never a part.
package targetdir
