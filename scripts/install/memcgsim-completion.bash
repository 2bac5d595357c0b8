# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for memcgsim(1): its commands; each command's options (read
# from its --help, so they stay in step with the program); scenario files
# and the bundled scenarios' names; a scenario's variant names and all
# after --variant (a name after each comma of a list); result files and
# directories where those are expected.
# Installed as share/bash-completion/completions/memcgsim.

# The options of memcgsim command $1, and (in _memcgsim_valued) those that
# take a value.
_memcgsim_options()
{
	memcgsim "$1" --help 2>/dev/null | grep -o -- '^ *\(-[a-z], \)\?--[a-z-]*\(=[A-Z]\)\?' |
		sed 's/^ *//; s/-[a-z], //'
}

_memcgsim()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd="" at=0 i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; at=$i; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "run validate schema sweep merge report compare list --version --help" -- "$cur"))
		return
	fi
	local opts valued
	opts=$(_memcgsim_options "$cmd")
	valued=" $(printf '%s\n' "$opts" | sed -n 's/=[A-Z]$//p' | tr '\n' ' ') -o -j "
	if [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	case $prev in
	--variant)
		# the scenario: the first argument after the command that is
		# neither an option nor an option's value
		local scen="" skip=0
		for ((i = at + 1; i < COMP_CWORD; i++)); do
			local w=${COMP_WORDS[i]}
			if ((skip)); then skip=0; continue; fi
			case $w in
			=) ;;
			-*) [[ $valued == *" $w "* ]] && skip=1 ;;
			*) scen=$w; break ;;
			esac
		done
		[[ -n $scen ]] || return
		local names
		names=$(memcgsim list --names "$scen" 2>/dev/null)
		# NAME,NAME...: complete the name after the last comma; "all"
		# only alone
		if [[ $cur == *,* ]]; then
			COMPREPLY=($(compgen -P "${cur%,*}," -W "$names" -- "${cur##*,}"))
		else
			COMPREPLY=($(compgen -W "all $names" -- "$cur"))
		fi
		return
		;;
	--format)
		case $cmd in
		run) COMPREPLY=($(compgen -W "text json summary" -- "$cur")) ;;
		compare) COMPREPLY=($(compgen -W "text md html" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "text md html summary json csv" -- "$cur")) ;;
		esac
		return
		;;
	--sort)
		COMPREPLY=($(compgen -W "contended wait_total wait_max wait_avg" -- "$cur"))
		return
		;;
	--out | --plots)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	esac
	if [[ $valued == *" $prev "* ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$opts" | sed 's/=[A-Z]$//')" -- "$cur"))
		return
	fi
	case $cmd in
	run | validate | sweep | list)
		COMPREPLY=($(compgen -W "$(memcgsim list --names 2>/dev/null)" -- "$cur")
			$(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
		;;
	report) COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur")) ;;
	compare) COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur")) ;;
	merge) COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
}
complete -F _memcgsim memcgsim
