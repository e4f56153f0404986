// A typed client of Tally's import API, as a Go pipeline step would write one: the ids are int32,
// the way Calliope's clients declare them. It imports one JUnit file, follows report_status_url,
// reads the profile and its reports listing, and exits 1 when an answer does not decode into these
// structs (a UUID where an int32 is declared, a number past 32 bits) or says something else.
//
// Usage: typed-client BASE_URL PROFILE_ID FILE   (the key comes from TALLY_API_KEY)
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
)

type importAnswer struct {
	ImportID        string  `json:"import_id"`
	ReportID        *int32  `json:"report_id"`
	ProfileID       int32   `json:"profile_id"`
	Status          string  `json:"status"`
	ImportStatus    string  `json:"import_status"`
	ReportURL       *string `json:"report_url"`
	ReportStatusURL *string `json:"report_status_url"`
}

type statusAnswer struct {
	ReportID       int32   `json:"report_id"`
	ImportID       string  `json:"import_id"`
	ImportStatus   string  `json:"import_status"`
	ImportProgress *int32  `json:"import_progress"`
	ReportURL      *string `json:"report_url"`
	Totals         *struct {
		Tests  int32 `json:"tests"`
		Passed int32 `json:"passed"`
	} `json:"totals"`
}

type profileAnswer struct {
	ProfileID int32  `json:"profile_id"`
	ID        int32  `json:"id"`
	Name      string `json:"name"`
}

type reportList struct {
	ProfileID int32 `json:"profile_id"`
	Reports   []struct {
		ID        int32 `json:"id"`
		ProfileID int32 `json:"profile_id"`
	} `json:"reports"`
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "typed-client: "+format+"\n", args...)
	os.Exit(1)
}

func call(req *http.Request, want int, into any) {
	req.Header.Set("x-api-key", os.Getenv("TALLY_API_KEY"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		fail("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		fail("%s %s answered %d, not %d: %s", req.Method, req.URL, res.StatusCode, want, body)
	}
	if err := json.Unmarshal(body, into); err != nil {
		fail("%s %s: the answer does not decode: %v", req.Method, req.URL, err)
	}
}

func get(url string, into any) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		fail("%v", err)
	}
	call(req, http.StatusOK, into)
}

func main() {
	if len(os.Args) != 4 {
		fail("usage: typed-client BASE_URL PROFILE_ID FILE")
	}
	base, profile, path := os.Args[1], os.Args[2], os.Args[3]
	content, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	var form bytes.Buffer
	w := multipart.NewWriter(&form)
	part, _ := w.CreateFormFile("file[]", filepath.Base(path))
	part.Write(content)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, base+"/api/v2/profile/"+profile+"/import/junit", &form)
	if err != nil {
		fail("%v", err)
	}
	req.Header.Set("content-type", w.FormDataContentType())

	var imported importAnswer
	call(req, http.StatusCreated, &imported)
	if imported.ReportID == nil || imported.ReportStatusURL == nil || imported.Status != "completed" {
		fail("the import answer has no report: %+v", imported)
	}
	var status statusAnswer
	get(*imported.ReportStatusURL, &status)
	if status.ReportID != *imported.ReportID || status.ImportStatus != "completed" || status.Totals == nil {
		fail("/status does not match the import: %+v", status)
	}
	var p profileAnswer
	get(fmt.Sprintf("%s/api/v2/profile/%d", base, imported.ProfileID), &p)
	var list reportList
	get(fmt.Sprintf("%s/api/v2/profile/%d/reports", base, p.ID), &list)
	if len(list.Reports) == 0 || list.Reports[0].ID != *imported.ReportID {
		fail("the reports listing does not start with the imported report: %+v", list)
	}
	if list.ProfileID != imported.ProfileID || list.Reports[0].ProfileID != imported.ProfileID {
		fail("the reports listing does not carry the profile's integer id: %+v", list)
	}
	fmt.Printf("report_id=%d profile_id=%d tests=%d\n", *imported.ReportID, imported.ProfileID, status.Totals.Tests)
}
