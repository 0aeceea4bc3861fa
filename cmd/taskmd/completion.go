package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// completions are the words to offer after each command path ("" for
// none yet, "agent", "agent list"), read from the command table and the
// commands' own flag sets, as help reads them; groups are the paths
// that take a subcommand.
func completions() (words map[string][]string, groups []string, err error) {
	words = map[string][]string{"": append(sorted(commands), "--help", "--version", "-C", "--json")}
	var walk func(path []string) error
	walk = func(path []string) error {
		h, err := describe(path)
		if err != nil {
			return err
		}
		key := strings.Join(path, " ")
		if h.fs == nil {
			groups = append(groups, key)
			words[key] = append(sorted(h.cmds), "--help", "-C", "--json")
			for _, n := range sorted(h.cmds) {
				if err := walk(append(slices.Clone(path), n)); err != nil {
					return err
				}
			}
			return nil
		}
		var w []string
		for _, n := range flagNames(h.fs) {
			w = append(w, "--"+n)
		}
		words[key] = append(w, "--help", "-C", "--json")
		return nil
	}
	for _, n := range sorted(commands) {
		if err := walk([]string{n}); err != nil {
			return nil, nil, err
		}
	}
	return words, groups, nil
}

// shells writes the completion script of each shell.
var shells = map[string]func(w io.Writer, words map[string][]string, groups []string){
	"bash": bashCompletion,
	"zsh":  zshCompletion,
	"fish": fishCompletion,
}

func cmdCompletion(e *env, args []string) error {
	pos, err := parseN(e.flags("completion"), args, "bash|zsh|fish")
	if err != nil {
		return err
	}
	write, ok := shells[pos[0]]
	if !ok {
		return usagef("completion: no script for %q; usage: taskmd completion bash|zsh|fish", pos[0])
	}
	words, groups, err := completions()
	if err != nil {
		return err
	}
	var b strings.Builder
	write(&b, words, groups)
	return e.print(struct {
		Shell  string `json:"shell"`
		Script string `json:"script"`
	}{pos[0], b.String()}, func(w io.Writer) { io.WriteString(w, b.String()) })
}

// pathCases are the shell case arms, one per path, sorted.
func pathCases(words map[string][]string, arm func(path, words string) string) string {
	keys := make([]string, 0, len(words))
	for k := range words {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(arm(k, strings.Join(words[k], " ")))
	}
	return b.String()
}

// The scripts walk the words typed so far as the tool reads them: flags
// are skipped (-C with its value), the first word is the command and the
// next one a subcommand when the command is a group.

func bashCompletion(w io.Writer, words map[string][]string, groups []string) {
	fmt.Fprintf(w, `# bash completion for taskmd: source <(taskmd completion bash)
_taskmd() {
    local cur=${COMP_WORDS[COMP_CWORD]} path="" word i
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
        -C) ((i++)); continue ;;
        -*) continue ;;
        esac
        if [[ -z $path ]]; then
            path=$word
        else
            case $path in
            %s) path="$path $word" ;;
            esac
        fi
    done
    local words
    case $path in
%s    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _taskmd taskmd
`, strings.Join(groups, "|"), pathCases(words, func(p, ws string) string {
		return fmt.Sprintf("    %q) words=%q ;;\n", p, ws)
	}))
}

func zshCompletion(w io.Writer, words map[string][]string, groups []string) {
	fmt.Fprintf(w, `#compdef taskmd
# zsh completion for taskmd: save as _taskmd in a folder of $fpath
_taskmd() {
    local path_="" word i
    local -a offer
    for ((i = 2; i < CURRENT; i++)); do
        word=${words[i]}
        case $word in
        -C) ((i++)); continue ;;
        -*) continue ;;
        esac
        if [[ -z $path_ ]]; then
            path_=$word
        else
            case $path_ in
            %s) path_="$path_ $word" ;;
            esac
        fi
    done
    case $path_ in
%s    esac
    compadd -a offer
}
compdef _taskmd taskmd
`, strings.Join(groups, "|"), pathCases(words, func(p, ws string) string {
		return fmt.Sprintf("    %q) offer=(%s) ;;\n", p, ws)
	}))
}

func fishCompletion(w io.Writer, words map[string][]string, groups []string) {
	fmt.Fprintf(w, `# fish completion for taskmd: taskmd completion fish | source
function __taskmd_path
    set -l path
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case -C
                set skip 1
                continue
            case '-*'
                continue
        end
        if test -z "$path"
            set path $word
        else if contains -- "$path" %s
            set path "$path $word"
        end
    end
    echo "$path"
end
function __taskmd_at
    set -l path (__taskmd_path)
    test "$path" = "$argv[1]"
end
complete -c taskmd -f
`, strings.Join(groups, " "))
	fmt.Fprint(w, pathCases(words, func(p, ws string) string {
		return fmt.Sprintf("complete -c taskmd -n %s -a %q\n", fishQuote("__taskmd_at '"+p+"'"), ws)
	}))
}

func fishQuote(s string) string { return `"` + s + `"` }
