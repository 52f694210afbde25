# scripts/deps.sh: sourced by the other scripts; installs the Debian packages streamsim needs.
# Uses sudo only when not root, and apt-get only for what is missing.
streamsim_install_deps () {
  local wanted=(cmake pkg-config libglib2.0-dev libjson-glib-dev libsqlite3-dev gnuplot-nox "$@")
  local missing=()
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "streamsim: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Configures and builds into $1 with the remaining arguments passed to cmake.
streamsim_build () {
  local dir="$1"; shift
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  mkdir -p "$dir"
  if ! { cmake -S . -B "$dir" "${gen[@]}" "$@" && cmake --build "$dir" -j "$(nproc)"; } >"$dir/build.log" 2>&1; then
    cat "$dir/build.log" >&2
    echo "streamsim: the build failed (log above, also in $dir/build.log)" >&2
    return 1
  fi
}
